import { eq } from "drizzle-orm";
import * as schema from "../schema";
import type { Accounts } from "./accounts";
import { insertRows, type SeedContext } from "./context";
import type { MasterData } from "./master-data";
import type { SurgeryBook } from "./surgeries";

/** Spine and cranial OPME a quote lists (demo ANVISA numbers: 11 digits, not real registrations). */
const KITS = [
  [
    { description: "Parafuso pedicular poliaxial 6,5 x 45 mm", quantity: 4, anvisaRegistration: "80102510001", baseCents: 185_000 },
    { description: "Haste de titânio 5,5 x 120 mm", quantity: 2, anvisaRegistration: "80102510002", baseCents: 92_000 },
    { description: "Cage intersomático PEEK TLIF", quantity: 1, anvisaRegistration: null, baseCents: 640_000 },
  ],
  [
    { description: "Cage cervical PEEK 6 mm", quantity: 1, anvisaRegistration: "80356130011", baseCents: 420_000 },
    { description: "Placa cervical anterior 2 níveis", quantity: 1, anvisaRegistration: "80356130012", baseCents: 710_000 },
  ],
  [
    { description: "Substituto de dura-máter 5 x 5 cm", quantity: 1, anvisaRegistration: "10349000120", baseCents: 260_000 },
    { description: "Kit de fixação craniana (placas e parafusos)", quantity: 1, anvisaRegistration: null, baseCents: 380_000 },
  ],
];

const REASONS = [
  "Menor preço total e entrega em 48 h no hospital.",
  "Material já padronizado pelo hospital; preço dentro da média das cotações.",
  "Única cotação com todos os itens em consignação.",
];

/**
 * OPME requests of the surgeries that went through 'OPME em Cotação': items, quotes with unit
 * prices (one per item) and, once past the stage, the chosen quote. Cards still in the stage show
 * every state of 'OPME: n/3 cotações' — none, one supplier (twice), two, three.
 */
export function seedOpme({ tx, random, nowMs }: SeedContext, accounts: Accounts, master: MasterData, book: SurgeryBook) {
  const opmeSuppliers = [...master.supplierByName.values()].filter((s) => s.type === "opme").map((s) => s.id);
  const drafts = book.surgeryDrafts.filter((d) => d.path.includes("opme_cotacao") && book.surgeryId.has(d));
  drafts.forEach((draft, n) => {
    const surgeryId = book.surgeryId.get(draft)!;
    const inQuotes = draft.stage === "opme_cotacao";
    // Cards in the stage cycle through the states a clinic sees: 0, 1 (twice from one supplier), 2 and 3 suppliers.
    const plan = inQuotes ? [[], [0, 0], [0, 1], [0, 1, 2]][n % 4] : [0, 1, 2];
    const kit = KITS[n % KITS.length];
    const [requestId] = insertRows(tx, schema.opmeRequests, [{ surgeryId }]);
    const itemIds = insertRows(
      tx,
      schema.opmeItems,
      kit.map((item, position) => ({ requestId, description: item.description, quantity: item.quantity, anvisaRegistration: item.anvisaRegistration, position })),
    );
    const quoteIds = insertRows(
      tx,
      schema.opmeQuotes,
      plan.map((s) => ({
        requestId,
        supplierId: opmeSuppliers[s % opmeSuppliers.length],
        validUntil: new Date(nowMs + random.int(10, 45) * 86_400_000).toISOString().slice(0, 10),
        createdBy: accounts.staffId,
      })),
    );
    const prices = quoteIds.flatMap((quoteId) =>
      kit.map((item, i) => ({ quoteId, itemId: itemIds[i], unitPriceCents: Math.round((item.baseCents * random.int(88, 118)) / 100) })),
    );
    if (prices.length) tx.insert(schema.opmeQuotePrices).values(prices).run();
    if (!inQuotes && quoteIds.length) {
      tx.update(schema.opmeRequests)
        .set({ chosenQuoteId: quoteIds[n % quoteIds.length], choiceReason: REASONS[n % REASONS.length] })
        .where(eq(schema.opmeRequests.id, requestId))
        .run();
    }
  });
}
