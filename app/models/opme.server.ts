import { and, asc, count, eq, inArray, max, sql } from "drizzle-orm";
import { opmeItems, opmeQuotePrices, opmeQuotes, opmeRequests, suppliers, surgeries } from "~db/schema";
import { recordAudit } from "~/.server/audit";
import { type DB, type Tx, db } from "~/.server/db";
import { DomainError } from "~/.server/domain-error";
import { formatIsoDate } from "~/lib/dates";
import { OPME_MAX_ITEMS, OPME_MAX_QUOTES, compareQuotes } from "~/lib/opme";
import type { OpmeChoiceInput, OpmeItemInput, OpmeQuoteInput } from "~/validation/opme";

/** A rule of the OPME screen the user can fix (a quote missing an item's price, an inactive supplier …). */
export class OpmeError extends DomainError {}

const NOT_FOUND = "Cirurgia não encontrada.";

function requestOf(conn: DB | Tx, surgeryId: number) {
  return conn.select().from(opmeRequests).where(eq(opmeRequests.surgeryId, surgeryId)).get() ?? null;
}

/** The surgery's request, created on its first item. */
function ensureRequest(tx: Tx, surgeryId: number) {
  const existing = requestOf(tx, surgeryId);
  if (existing) return existing;
  const surgery = tx.select({ id: surgeries.id }).from(surgeries).where(eq(surgeries.id, surgeryId)).get();
  if (!surgery) throw new OpmeError(NOT_FOUND);
  return tx.insert(opmeRequests).values({ surgeryId }).returning().get();
}

/**
 * Different suppliers quoting each surgery's OPME, for the cards the board shows (≤ 20 per
 * column): one grouped read through the request's unique index and the (request, supplier) index.
 * Surgeries without a request are absent.
 */
export function opmeSupplierCounts(surgeryIds: readonly number[], conn: DB | Tx = db): Map<number, number> {
  if (surgeryIds.length === 0) return new Map();
  const rows = conn
    .select({ surgeryId: opmeRequests.surgeryId, suppliers: sql<number>`count(distinct ${opmeQuotes.supplierId})`.mapWith(Number) })
    .from(opmeRequests)
    .leftJoin(opmeQuotes, eq(opmeQuotes.requestId, opmeRequests.id))
    .where(inArray(opmeRequests.surgeryId, [...surgeryIds]))
    .groupBy(opmeRequests.surgeryId)
    .all();
  return new Map(rows.map((row) => [row.surgeryId, row.suppliers]));
}

/**
 * What the move to 'Aprovado' checks (inside the move's transaction): the surgery's OPME state
 * when an OPME is in play — a request exists, or the card is in 'OPME em Cotação' — else null.
 */
export function opmeStateForMove(tx: Tx, surgeryId: number, currentStage: string): { suppliers: number } | null {
  const suppliersQuoting = opmeSupplierCounts([surgeryId], tx).get(surgeryId);
  if (suppliersQuoting !== undefined) return { suppliers: suppliersQuoting };
  return currentStage === "opme_cotacao" ? { suppliers: 0 } : null;
}

/** The OPME screen: items, quotes with their prices, the comparison and the chosen quote. */
export function getOpme(surgeryId: number) {
  const request = requestOf(db, surgeryId);
  if (!request) return { request: null, items: [], quotes: [], comparison: compareQuotes([], []), suppliers: 0 };
  const items = db
    .select({ id: opmeItems.id, description: opmeItems.description, quantity: opmeItems.quantity, anvisaRegistration: opmeItems.anvisaRegistration })
    .from(opmeItems)
    .where(eq(opmeItems.requestId, request.id))
    .orderBy(asc(opmeItems.position), asc(opmeItems.id))
    .limit(OPME_MAX_ITEMS)
    .all();
  const quoteRows = db
    .select({ id: opmeQuotes.id, supplierId: opmeQuotes.supplierId, supplierName: suppliers.name, validUntil: opmeQuotes.validUntil, notes: opmeQuotes.notes })
    .from(opmeQuotes)
    .innerJoin(suppliers, eq(suppliers.id, opmeQuotes.supplierId))
    .where(eq(opmeQuotes.requestId, request.id))
    .orderBy(asc(opmeQuotes.id))
    .limit(OPME_MAX_QUOTES)
    .all();
  const prices = quoteRows.length
    ? db.select().from(opmeQuotePrices).where(inArray(opmeQuotePrices.quoteId, quoteRows.map((q) => q.id))).all()
    : [];
  const quotes = quoteRows.map((quote) => ({
    ...quote,
    validUntilText: formatIsoDate(quote.validUntil),
    prices: new Map(prices.filter((p) => p.quoteId === quote.id).map((p) => [p.itemId, p.unitPriceCents])),
  }));
  return {
    request: { id: request.id, chosenQuoteId: request.chosenQuoteId, choiceReason: request.choiceReason },
    items,
    quotes: quotes.map(({ prices: priceMap, ...quote }) => ({ ...quote, prices: Object.fromEntries(priceMap) as Record<number, number> })),
    comparison: compareQuotes(items, quotes),
    suppliers: new Set(quotes.map((q) => q.supplierId)).size,
  };
}

export function addOpmeItem(userId: number, surgeryId: number, input: OpmeItemInput) {
  db.transaction((tx) => {
    const request = ensureRequest(tx, surgeryId);
    const n = tx.select({ n: count(), last: max(opmeItems.position) }).from(opmeItems).where(eq(opmeItems.requestId, request.id)).get()!;
    if (n.n >= OPME_MAX_ITEMS) throw new OpmeError(`Uma solicitação tem no máximo ${OPME_MAX_ITEMS} itens.`, "description");
    const item = tx
      .insert(opmeItems)
      .values({ requestId: request.id, ...input, position: (n.last ?? -1) + 1 })
      .returning({ id: opmeItems.id })
      .get();
    recordAudit(tx, { userId, action: "create", entity: "opme_item", entityId: item.id, changes: { surgeryId, ...input } });
  });
}

/** Removes an item (and its prices in every quote); the item must belong to this surgery's request. */
export function removeOpmeItem(userId: number, surgeryId: number, itemId: number) {
  db.transaction((tx) => {
    const request = requestOf(tx, surgeryId);
    const item = request && tx.select().from(opmeItems).where(and(eq(opmeItems.id, itemId), eq(opmeItems.requestId, request.id))).get();
    if (!item) throw new OpmeError("Item não encontrado.");
    tx.delete(opmeItems).where(eq(opmeItems.id, itemId)).run();
    recordAudit(tx, { userId, action: "delete", entity: "opme_item", entityId: itemId, changes: item });
  });
}

/** A supplier's quote: an active supplier of Cadastros and a unit price for every item of the request, no more. */
export function addOpmeQuote(userId: number, surgeryId: number, input: OpmeQuoteInput) {
  return db.transaction((tx) => {
    const request = requestOf(tx, surgeryId);
    if (!request) throw new OpmeError("Cadastre os itens da OPME antes das cotações.");
    const supplier = tx.select({ id: suppliers.id, active: suppliers.active }).from(suppliers).where(eq(suppliers.id, input.supplierId)).get();
    if (!supplier) throw new OpmeError("Fornecedor não encontrado.", "supplierId");
    if (!supplier.active) throw new OpmeError("Este fornecedor está inativo em Cadastros.", "supplierId");
    const quotes = tx.select({ n: count() }).from(opmeQuotes).where(eq(opmeQuotes.requestId, request.id)).get()!.n;
    if (quotes >= OPME_MAX_QUOTES) throw new OpmeError(`Uma solicitação tem no máximo ${OPME_MAX_QUOTES} cotações.`);
    const itemIds = tx.select({ id: opmeItems.id }).from(opmeItems).where(eq(opmeItems.requestId, request.id)).all().map((row) => row.id);
    const priced = new Set(input.prices.map((p) => p.itemId));
    if (priced.size !== input.prices.length || itemIds.length !== priced.size || itemIds.some((id) => !priced.has(id))) {
      throw new OpmeError("Informe um preço para cada item da solicitação (os itens mudaram? recarregue a página).");
    }
    const quote = tx
      .insert(opmeQuotes)
      .values({ requestId: request.id, supplierId: input.supplierId, validUntil: input.validUntil, notes: input.notes, createdBy: userId })
      .returning({ id: opmeQuotes.id })
      .get();
    tx.insert(opmeQuotePrices)
      .values(input.prices.map((p) => ({ quoteId: quote.id, itemId: p.itemId, unitPriceCents: p.price })))
      .run();
    recordAudit(tx, { userId, action: "create", entity: "opme_quote", entityId: quote.id, changes: { surgeryId, ...input } });
    return quote.id;
  });
}

export function removeOpmeQuote(userId: number, surgeryId: number, quoteId: number) {
  db.transaction((tx) => {
    const request = requestOf(tx, surgeryId);
    const quote = request && tx.select().from(opmeQuotes).where(and(eq(opmeQuotes.id, quoteId), eq(opmeQuotes.requestId, request.id))).get();
    if (!quote) throw new OpmeError("Cotação não encontrada.");
    if (request.chosenQuoteId === quoteId) tx.update(opmeRequests).set({ chosenQuoteId: null, choiceReason: null }).where(eq(opmeRequests.id, request.id)).run();
    tx.delete(opmeQuotes).where(eq(opmeQuotes.id, quoteId)).run();
    recordAudit(tx, { userId, action: "delete", entity: "opme_quote", entityId: quoteId, changes: quote });
  });
}

/** The chosen quote and why (a quote of this request). */
export function chooseOpmeQuote(userId: number, surgeryId: number, input: OpmeChoiceInput) {
  db.transaction((tx) => {
    const request = requestOf(tx, surgeryId);
    const quote = request && tx.select({ id: opmeQuotes.id }).from(opmeQuotes).where(and(eq(opmeQuotes.id, input.quoteId), eq(opmeQuotes.requestId, request.id))).get();
    if (!quote) throw new OpmeError("Cotação não encontrada.", "quoteId");
    tx.update(opmeRequests).set({ chosenQuoteId: input.quoteId, choiceReason: input.reason }).where(eq(opmeRequests.id, request.id)).run();
    recordAudit(tx, {
      userId,
      action: "update",
      entity: "opme_request",
      entityId: request.id,
      changes: { chosenQuoteId: [request.chosenQuoteId, input.quoteId], choiceReason: [request.choiceReason, input.reason] },
    });
  });
}
