import { diffLines } from "diff";
import { and, desc, eq } from "drizzle-orm";
import { profiles, sopVersions, sops } from "~db/schema";
import { diffChanges, recordAudit } from "~/.server/audit";
import { db } from "~/.server/db";
import { DomainError } from "~/.server/domain-error";
import { type KeysetOrder, keysetList } from "~/.server/pagination";
import { likeWord, matchAllWords } from "~/.server/search-sql";
import type { SopStatus } from "~/lib/enums";
import type { ListParams } from "~/lib/list-params";
import { buildSearchText } from "~/lib/search";
import type { SopInput } from "~/validation/sop";
import { renderMarkdown } from "./sop-markdown.server";

/**
 * Standard operating procedures (SPEC §4): every save is a new version (version + 1, updated_at
 * set), and every version is kept in `sop_versions`, readable and comparable.
 */
export class SopError extends DomainError<keyof SopInput & string> {}

type SopState = ListParams<"createdAt" | "title"> & { filters: { status: SopStatus | null } };

export function sopSearchText(input: Pick<SopInput, "title" | "category">) {
  return buildSearchText(input.title, input.category);
}

function sopWhere({ q, filters }: Pick<SopState, "q" | "filters">) {
  return and(filters.status ? eq(sops.status, filters.status) : undefined, matchAllWords(q, (word) => likeWord(sops.searchText, word)));
}

const sopOrder = ({ sort, dir }: Pick<SopState, "sort" | "dir">): KeysetOrder => ({
  key: sort === "title" ? sops.searchText : sops.createdAt,
  id: sops.id,
  dir,
});

const SOP_ROW = { title: sops.title, category: sops.category, status: sops.status, version: sops.version, createdAt: sops.createdAt, updatedAt: sops.updatedAt };

export function listSops(state: SopState) {
  const where = sopWhere(state);
  const order = sopOrder(state);
  return keysetList(
    sops,
    where,
    state,
    order,
    (at, orderBy, limit, offset) =>
      db
        .select({ id: sops.id, ...SOP_ROW, cursorKey: order.key })
        .from(sops)
        .where(at)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset)
        .all(),
  );
}

export function getSop(id: number) {
  return db.select().from(sops).where(eq(sops.id, id)).get() ?? null;
}

export function createSop(userId: number, input: SopInput) {
  return db.transaction((tx) => {
    const row = tx
      .insert(sops)
      .values({ ...input, version: 1, createdBy: userId, searchText: sopSearchText(input) })
      .returning({ id: sops.id, createdAt: sops.createdAt })
      .get();
    tx.insert(sopVersions).values({ sopId: row.id, version: 1, ...input, editedBy: userId, createdAt: row.createdAt }).run();
    recordAudit(tx, { userId, action: "create", entity: "sop", entityId: row.id, changes: { ...input, version: 1 } });
    return row.id;
  });
}

/** Every edit is a new version: version + 1 and updated_at now (SPEC §4), the previous ones kept. */
export function updateSop(userId: number, id: number, input: SopInput) {
  db.transaction((tx) => {
    const before = tx.select().from(sops).where(eq(sops.id, id)).get();
    if (!before) throw new SopError("SOP não encontrado.");
    const version = before.version + 1;
    const now = new Date();
    tx.update(sops)
      .set({ ...input, version, updatedAt: now, searchText: sopSearchText(input) })
      .where(eq(sops.id, id))
      .run();
    tx.insert(sopVersions).values({ sopId: id, version, ...input, editedBy: userId, createdAt: now }).run();
    recordAudit(tx, { userId, action: "update", entity: "sop", entityId: id, changes: { ...diffChanges(before, input), version: [before.version, version] } });
  });
}

export function deleteSop(userId: number, id: number) {
  db.transaction((tx) => {
    const sop = tx.select().from(sops).where(eq(sops.id, id)).get();
    if (!sop) throw new SopError("SOP não encontrado.");
    tx.delete(sops).where(eq(sops.id, id)).run();
    const { searchText: _omit, ...snapshot } = sop;
    recordAudit(tx, { userId, action: "delete", entity: "sop", entityId: id, changes: snapshot });
  });
}

/** The versions of a SOP, newest first, with who saved each (at most 200: a SOP is edited a few times a year). */
export function sopVersionList(sopId: number) {
  return db
    .select({ version: sopVersions.version, status: sopVersions.status, title: sopVersions.title, createdAt: sopVersions.createdAt, editedBy: profiles.name })
    .from(sopVersions)
    .leftJoin(profiles, eq(profiles.id, sopVersions.editedBy))
    .where(eq(sopVersions.sopId, sopId))
    .orderBy(desc(sopVersions.version))
    .limit(200)
    .all();
}

export function getSopVersion(sopId: number, version: number) {
  return db.select().from(sopVersions).where(and(eq(sopVersions.sopId, sopId), eq(sopVersions.version, version))).get() ?? null;
}

/** One version as the reader sees it: its Markdown rendered to safe HTML. */
export async function sopVersionView(sopId: number, version: number) {
  const row = getSopVersion(sopId, version);
  return row && { version: row.version, title: row.title, category: row.category, status: row.status, createdAt: row.createdAt, html: await renderMarkdown(row.contentMd) };
}

export interface DiffPart {
  kind: "added" | "removed" | "same";
  text: string;
}

/** The line diff from version `from` to version `to` (title and content), or null when either is missing. */
export function sopDiff(sopId: number, from: number, to: number): { from: number; to: number; parts: DiffPart[] } | null {
  const [a, b] = [getSopVersion(sopId, from), getSopVersion(sopId, to)];
  if (!a || !b) return null;
  const text = (v: NonNullable<typeof a>) => `# ${v.title}\n\n${v.contentMd}\n`;
  const parts = diffLines(text(a), text(b)).map((part): DiffPart => ({ kind: part.added ? "added" : part.removed ? "removed" : "same", text: part.value }));
  return { from, to, parts };
}
