import { type SQL, and, asc, count, desc, eq, ne } from "drizzle-orm";
import type { SelectResultFields } from "drizzle-orm/query-builders/select.types";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { diffChanges, recordAudit } from "~/.server/audit";
import { type DB, type Tx, db } from "~/.server/db";
import { DomainError } from "~/.server/domain-error";
import { likeWord, matchAllWords } from "~/.server/search-sql";
import { isForeignKeyViolation } from "~/.server/sql-errors";
import { type KeysetOrder, keysetList } from "~/.server/pagination";
import { formatCnpj } from "~/lib/documents";
import type { ListParams } from "~/lib/list-params";

/**
 * What the four Cadastros models (payers, hospitals, suppliers, medical codes) share: the searched,
 * keyset-paged list, the CNPJ that is unique per table, and audited writes that refuse to delete a
 * record other records still point at (docs/decisions/0003-deleting-referenced-records.md).
 */

/** A rule the admin can fix (CNPJ already registered, record still in use, code changed …). */
export class MasterDataError extends DomainError {}

type CatalogTable = SQLiteTable & { id: SQLiteColumn; searchText: SQLiteColumn };

/** Every word of the search in the stored key (accent- and case-insensitive). */
export function searchIn(table: CatalogTable, q: string): SQL | undefined {
  return matchAllWords(q, (word) => likeWord(table.searchText, word));
}

/** Name order: the search key starts with the folded name, so 'Álvaro' sorts with the A's. */
export function nameOrder(table: CatalogTable, dir: "asc" | "desc"): KeysetOrder {
  return { key: table.searchText, id: table.id, dir };
}

/** The ORDER BY of a keyset order, for an export. */
export function orderBy(order: KeysetOrder) {
  const direction = order.dir === "asc" ? asc : desc;
  return [direction(order.key), direction(order.id)];
}

/**
 * One page of a Cadastros list: `where` narrows it, `order` is its keyset order (the search key,
 * which starts with the folded name, or the code), `fields` the row's columns.
 */
export function catalogPage<Fields extends Record<string, SQLiteColumn | SQL.Aliased>>(
  table: CatalogTable,
  state: ListParams<string>,
  where: SQL | undefined,
  order: KeysetOrder,
  fields: Fields,
) {
  return keysetList(
    table,
    where,
    state,
    order,
    (at, orderBy, limit, offset) =>
      db
        .select({ id: table.id, ...fields, cursorKey: order.key })
        .from(table)
        .where(at)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset)
        .all() as Array<{ id: number; cursorKey: unknown } & SelectResultFields<Fields>>,
  );
}

export interface CatalogSpec<Input> {
  table: CatalogTable & { cnpj?: SQLiteColumn };
  /** The audit log's entity name ('payer'). */
  entity: string;
  /** 'Pagador não encontrado.' */
  notFound: string;
  /** Who else holds this CNPJ: 'Este CNPJ já está cadastrado para {name}.' */
  nameOf: (row: Record<string, unknown>) => string;
  searchText: (input: Input) => string;
  /** What still points at a record, as 'N cirurgias' phrases; empty when it may go. */
  references?: (conn: DB | Tx, id: number) => string[];
  /** 'este pagador' for the refusal sentence. */
  thisOne: string;
  /** Form fields kept in another table (a payer's TISS settings): read for the audit diff, written in the same transaction. */
  related?: {
    read: (conn: DB | Tx, id: number) => Record<string, unknown>;
    write: (tx: Tx, id: number, input: Input) => void;
  };
}

/** The CNPJ is unique within its table (checked here rather than by an index: older data may repeat one). */
function assertCnpjFree<Input>(conn: DB | Tx, spec: CatalogSpec<Input>, cnpj: string | null | undefined, exceptId?: number) {
  const column = spec.table.cnpj;
  if (!cnpj || !column) return;
  const clash = conn
    .select()
    .from(spec.table)
    .where(and(eq(column, cnpj), exceptId ? ne(spec.table.id, exceptId) : undefined))
    .get() as Record<string, unknown> | undefined;
  if (clash) throw new MasterDataError(`O CNPJ ${formatCnpj(cnpj)} já está cadastrado para ${spec.nameOf(clash)}.`, "cnpj");
}

export function getRecord<Row>(table: CatalogTable, id: number): Row | null {
  return (db.select().from(table).where(eq(table.id, id)).get() as Row | undefined) ?? null;
}

export function createRecord<Input extends Record<string, unknown>>(spec: CatalogSpec<Input>, userId: number, input: Input) {
  return db.transaction((tx) => {
    assertCnpjFree(tx, spec, input.cnpj as string | null);
    const row = tx
      .insert(spec.table)
      .values({ ...input, searchText: spec.searchText(input) } as never)
      .returning({ id: spec.table.id })
      .get() as { id: number };
    spec.related?.write(tx, row.id, input);
    recordAudit(tx, { userId, action: "create", entity: spec.entity, entityId: row.id, changes: input });
    return row.id;
  });
}

export function updateRecord<Input extends Record<string, unknown>>(
  spec: CatalogSpec<Input>,
  userId: number,
  id: number,
  input: Input,
  guard?: (before: Record<string, unknown>) => void,
) {
  db.transaction((tx) => {
    const row = tx.select().from(spec.table).where(eq(spec.table.id, id)).get() as Record<string, unknown> | undefined;
    if (!row) throw new MasterDataError(spec.notFound);
    guard?.(row);
    assertCnpjFree(tx, spec, input.cnpj as string | null, id);
    const before = spec.related ? { ...row, ...spec.related.read(tx, id) } : row;
    tx.update(spec.table)
      .set({ ...input, searchText: spec.searchText(input), updatedAt: new Date() } as never)
      .where(eq(spec.table.id, id))
      .run();
    spec.related?.write(tx, id, input);
    recordAudit(tx, { userId, action: "update", entity: spec.entity, entityId: id, changes: diffChanges(before, input) });
  });
}

function joinPt(parts: string[]) {
  return parts.length <= 1 ? parts.join("") : `${parts.slice(0, -1).join(", ")} e ${parts[parts.length - 1]}`;
}

/** 'Não é possível excluir Unimed: este pagador está em 3 cirurgias. Marque-o como inativo.' */
export function refusalOf<Input>(spec: CatalogSpec<Input>, name: string, references: string[]) {
  return `Não é possível excluir ${name}: ${spec.thisOne} está em ${joinPt(references)}. Marque-o como inativo.`;
}

/** Why a record cannot be deleted (shown in the confirmation before the admin tries), or null. */
export function deleteBlock<Input>(spec: CatalogSpec<Input>, id: number, name: string): string | null {
  const references = spec.references?.(db, id) ?? [];
  return references.length ? refusalOf(spec, name, references) : null;
}

export function deleteRecord<Input>(spec: CatalogSpec<Input>, userId: number, id: number) {
  try {
    db.transaction((tx) => {
      const row = tx.select().from(spec.table).where(eq(spec.table.id, id)).get() as Record<string, unknown> | undefined;
      if (!row) throw new MasterDataError(spec.notFound);
      const references = spec.references?.(tx, id) ?? [];
      if (references.length) throw new MasterDataError(refusalOf(spec, spec.nameOf(row), references));
      tx.delete(spec.table).where(eq(spec.table.id, id)).run();
      const { searchText: _omit, ...snapshot } = row;
      recordAudit(tx, { userId, action: "delete", entity: spec.entity, entityId: id, changes: snapshot });
    });
  } catch (error) {
    if (isForeignKeyViolation(error)) throw new MasterDataError(`Não é possível excluir: há registros ligados a ${spec.thisOne}.`);
    throw error;
  }
}

/** 'N cirurgias' when `column` of `table` points at `id` N > 0 times. */
export function referenceCount(conn: DB | Tx, table: SQLiteTable, column: SQLiteColumn, id: number, one: string, many: string): string[] {
  const n = conn.select({ n: count() }).from(table).where(eq(column, id)).get()!.n;
  return n ? [`${n.toLocaleString("pt-BR")} ${n === 1 ? one : many}`] : [];
}
