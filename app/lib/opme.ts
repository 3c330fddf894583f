/**
 * OPME quotes (issue 8; ADR 0021). Browser-safe rules shared by the board card, the OPME screen,
 * the move and the tests.
 */

/** A surgery's OPME needs quotes from this many different suppliers before approval (or a justification). */
export const OPME_MIN_SUPPLIERS = 3;
export const OPME_MAX_ITEMS = 50;
export const OPME_MAX_QUOTES = 30;
export const OPME_REASON_MAX = 1000;

/** Quotes from different suppliers: three quotes from one supplier count as one. */
export function distinctSuppliers(quotes: ReadonlyArray<{ supplierId: number }>): number {
  return new Set(quotes.map((quote) => quote.supplierId)).size;
}

/** 'OPME: 2/3 cotações' (the count is of different suppliers). */
export function opmeBadgeText(suppliers: number): string {
  return `OPME: ${Math.min(suppliers, OPME_MIN_SUPPLIERS)}/${OPME_MIN_SUPPLIERS} cotações`;
}

/** Whether a move to 'Aprovado' must carry a justification: the OPME is still short of three suppliers. */
export function approvalNeedsJustification(opme: { suppliers: number } | null): boolean {
  return opme !== null && opme.suppliers < OPME_MIN_SUPPLIERS;
}

export const OPME_JUSTIFICATION_MESSAGE = `Justifique a aprovação sem ${OPME_MIN_SUPPLIERS} cotações de OPME de fornecedores diferentes.`;

export interface ComparisonQuote {
  id: number;
  supplierName: string;
  validUntil: string;
  prices: ReadonlyMap<number, number>;
}

/**
 * The side-by-side comparison: per item, each quote's unit price and the lowest one marked (every
 * quote that ties on it), and per quote its total for the quantities (null when it misses an item).
 */
export function compareQuotes(items: ReadonlyArray<{ id: number; quantity: number }>, quotes: readonly ComparisonQuote[]) {
  const rows = items.map((item) => {
    const prices = quotes.map((quote) => quote.prices.get(item.id) ?? null);
    const known = prices.filter((p): p is number => p !== null);
    const lowest = known.length ? Math.min(...known) : null;
    return { itemId: item.id, prices, lowest, lowestQuoteIds: quotes.filter((_, i) => prices[i] !== null && prices[i] === lowest).map((q) => q.id) };
  });
  const totals = quotes.map((quote) =>
    items.every((item) => quote.prices.has(item.id)) ? items.reduce((sum, item) => sum + quote.prices.get(item.id)! * item.quantity, 0) : null,
  );
  const complete = totals.filter((t): t is number => t !== null);
  const lowestTotal = complete.length ? Math.min(...complete) : null;
  return { rows, totals, lowestTotal };
}

/** An ANVISA registration as typed ('10.123.456.789-0', '80102511234') → its 11 digits, or null when it is not one. */
export function normalizeAnvisa(raw: string): string | null {
  const digits = raw.replace(/[\s.\-/]/g, "");
  return /^\d{11}$/.test(digits) ? digits : null;
}
