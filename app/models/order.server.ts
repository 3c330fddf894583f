import { and, eq } from "drizzle-orm";
import { type OrderDetails, orderStatusChanges, orders, patients, profiles, suppliers } from "~db/schema";
import { diffChanges, recordAudit } from "~/.server/audit";
import { type Tx, db } from "~/.server/db";
import { DomainError } from "~/.server/domain-error";
import { keysetList } from "~/.server/pagination";
import { likeWord, matchAllWords } from "~/.server/search-sql";
import type { OrderStatus } from "~/lib/enums";
import type { ListParams } from "~/lib/list-params";
import { buildSearchText } from "~/lib/search";
import { type OrderInput, type OrderItem, orderTotalCents } from "~/validation/order";

/**
 * Orders (OPME, materials, exams…): items kept as validated JSON in `details_json`, the total
 * computed from them, and every status change logged in `order_status_changes`.
 */
export class OrderError extends DomainError<keyof OrderInput & string> {}

type OrderState = ListParams<"createdAt"> & { filters: { status: OrderStatus | null } };

/** The stored search key: type, patient and supplier names and the items (names as they were at the save). */
function orderSearchText(tx: Tx, input: OrderInput) {
  const patient = input.patientId ? tx.select({ name: patients.name }).from(patients).where(eq(patients.id, input.patientId)).get() : null;
  const supplier = input.supplierId ? tx.select({ name: suppliers.name }).from(suppliers).where(eq(suppliers.id, input.supplierId)).get() : null;
  if (input.patientId && !patient) throw new OrderError("Paciente não encontrado.", "patientId");
  if (input.supplierId && !supplier) throw new OrderError("Fornecedor não encontrado.", "supplierId");
  return buildSearchText(input.orderType, patient?.name, supplier?.name, ...input.items.map((item) => item.description));
}

function orderWhere({ q, filters }: Pick<OrderState, "q" | "filters">) {
  return and(filters.status ? eq(orders.status, filters.status) : undefined, matchAllWords(q, (word) => likeWord(orders.searchText, word)));
}

export function listOrders(state: OrderState) {
  const order = { key: orders.createdAt, id: orders.id, dir: state.dir };
  return keysetList(orders, orderWhere(state), state, order, (where, orderBy, limit, offset) =>
    db
      .select({
        id: orders.id,
        orderType: orders.orderType,
        status: orders.status,
        totalCents: orders.totalCents,
        createdAt: orders.createdAt,
        patientName: patients.name,
        supplierName: suppliers.name,
        cursorKey: order.key,
      })
      .from(orders)
      .leftJoin(patients, eq(patients.id, orders.patientId))
      .leftJoin(suppliers, eq(suppliers.id, orders.supplierId))
      .where(where)
      .orderBy(...orderBy)
      .limit(limit)
      .offset(offset)
      .all(),
  );
}

/** The stored items, whatever shape older rows had (anything unreadable is left out). */
export function itemsOf(details: OrderDetails | null): OrderItem[] {
  return (details?.items ?? [])
    .filter((item) => item && typeof item.description === "string")
    .map((item) => ({ description: item.description, quantity: Number(item.quantity) || 1, unitCents: typeof item.unitCents === "number" ? item.unitCents : null }));
}

export function getOrder(id: number) {
  const row = db.select().from(orders).where(eq(orders.id, id)).get();
  if (!row) return null;
  const notes = typeof row.detailsJson?.notes === "string" ? row.detailsJson.notes : null;
  return { ...row, items: itemsOf(row.detailsJson), notes };
}

/** The status history, oldest first, with who made each change. */
export function orderStatusHistory(orderId: number) {
  return db
    .select({ fromStatus: orderStatusChanges.fromStatus, toStatus: orderStatusChanges.toStatus, changedAt: orderStatusChanges.changedAt, changedBy: profiles.name })
    .from(orderStatusChanges)
    .leftJoin(profiles, eq(profiles.id, orderStatusChanges.changedBy))
    .where(eq(orderStatusChanges.orderId, orderId))
    .orderBy(orderStatusChanges.changedAt, orderStatusChanges.id)
    .limit(200)
    .all();
}

function details(input: OrderInput, previous: OrderDetails | null = null): OrderDetails {
  // Keys other screens stored (surgeryId …) are kept; items and notes are the form's.
  return { ...(previous ?? {}), items: input.items, notes: input.notes };
}

function values(tx: Tx, input: OrderInput, previous: OrderDetails | null = null) {
  return {
    orderType: input.orderType,
    status: input.status,
    patientId: input.patientId,
    supplierId: input.supplierId,
    totalCents: orderTotalCents(input.items),
    detailsJson: details(input, previous),
    searchText: orderSearchText(tx, input),
  };
}

export function createOrder(userId: number, input: OrderInput) {
  return db.transaction((tx) => {
    const row = tx.insert(orders).values({ ...values(tx, input), createdBy: userId }).returning({ id: orders.id }).get();
    tx.insert(orderStatusChanges).values({ orderId: row.id, fromStatus: null, toStatus: input.status, changedBy: userId }).run();
    recordAudit(tx, { userId, action: "create", entity: "order", entityId: row.id, changes: input });
    return row.id;
  });
}

export function updateOrder(userId: number, id: number, input: OrderInput) {
  db.transaction((tx) => {
    const before = tx.select().from(orders).where(eq(orders.id, id)).get();
    if (!before) throw new OrderError("Pedido não encontrado.");
    const next = values(tx, input, before.detailsJson);
    tx.update(orders).set({ ...next, updatedAt: new Date() }).where(eq(orders.id, id)).run();
    if (before.status !== input.status) {
      tx.insert(orderStatusChanges).values({ orderId: id, fromStatus: before.status, toStatus: input.status, changedBy: userId }).run();
    }
    const { searchText: _a, ...after } = next;
    recordAudit(tx, { userId, action: "update", entity: "order", entityId: id, changes: diffChanges(before as Record<string, unknown>, after) });
  });
}

export function deleteOrder(userId: number, id: number) {
  db.transaction((tx) => {
    const order = tx.select().from(orders).where(eq(orders.id, id)).get();
    if (!order) throw new OrderError("Pedido não encontrado.");
    tx.delete(orders).where(eq(orders.id, id)).run();
    const { searchText: _omit, ...snapshot } = order;
    recordAudit(tx, { userId, action: "delete", entity: "order", entityId: id, changes: snapshot });
  });
}

