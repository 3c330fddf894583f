import type Database from "better-sqlite3";
import type { PipelineStage } from "../../../app/lib/pipeline";
import type { Random } from "../random";
import { HOUR, MINUTE } from "../time";
import { type Calendar, isoOfDay } from "./calendar";

interface KitItem {
  description: string;
  quantity: number;
  /** Demo ANVISA numbers (11 digits, not real registrations), or null when the quote did not give one. */
  anvisa: string | null;
  /** Today's list price of one unit, in cents; older quotes are deflated with the surgery's price index. */
  cents: number;
}

/** The implants and materials each OPME surgery of the catalogue asks for. */
const KITS: Record<string, KitItem[]> = {
  "Artrodese lombar instrumentada L4-L5": [
    { description: "Parafuso pedicular poliaxial 6,5 x 45 mm", quantity: 4, anvisa: "80102510001", cents: 185_000 },
    { description: "Haste de titânio 5,5 x 120 mm", quantity: 2, anvisa: "80102510002", cents: 92_000 },
    { description: "Cage intersomático PEEK TLIF", quantity: 1, anvisa: null, cents: 640_000 },
    { description: "Substituto ósseo sintético 5 cc", quantity: 1, anvisa: "80102510007", cents: 210_000 },
  ],
  "Discectomia cervical anterior com artrodese (ACDF) C5-C6": [
    { description: "Cage cervical PEEK 6 mm", quantity: 1, anvisa: "80356130011", cents: 420_000 },
    { description: "Placa cervical anterior 1 nível", quantity: 1, anvisa: "80356130012", cents: 610_000 },
    { description: "Parafuso para placa cervical 4,0 x 14 mm", quantity: 4, anvisa: "80356130013", cents: 48_000 },
  ],
  "Cifoplastia T12": [
    { description: "Kit de cifoplastia com balão inflável", quantity: 1, anvisa: "80145900021", cents: 980_000 },
    { description: "Cimento ósseo PMMA de alta viscosidade", quantity: 1, anvisa: "80145900022", cents: 160_000 },
  ],
  "Artroplastia discal cervical C6-C7": [{ description: "Prótese de disco cervical", quantity: 1, anvisa: "80356130031", cents: 2_150_000 }],
  "Clipagem de aneurisma cerebral": [
    { description: "Clipe de aneurisma de titânio", quantity: 2, anvisa: "10349000131", cents: 390_000 },
    { description: "Substituto de dura-máter 5 x 5 cm", quantity: 1, anvisa: "10349000120", cents: 260_000 },
  ],
  "Derivação ventriculoperitoneal": [
    { description: "Válvula de derivação ventriculoperitoneal de pressão programável", quantity: 1, anvisa: "10349000141", cents: 1_450_000 },
    { description: "Cateter peritoneal impregnado com antibiótico", quantity: 1, anvisa: "10349000142", cents: 280_000 },
  ],
};

const QUOTE_NOTES = ["Material em consignação no hospital.", "Entrega em 48 h.", "Preço válido para pagamento em 60 dias.", "Inclui instrumental em comodato."];

const REASONS = [
  "Menor preço total e entrega em 48 h no hospital.",
  "Material já padronizado pelo hospital; preço dentro da média das cotações.",
  "Única cotação com todos os itens em consignação.",
  "Preferência do cirurgião pelo sistema de implantes; diferença de preço pequena.",
];

export interface OpmeEnv {
  conn: Database.Database;
  /** A stream of its own, so the OPME requests do not change any other table of a given seed. */
  random: Random;
  calendar: Calendar;
  nowMs: number;
  adminId: number;
  /** The ids of the OPME suppliers of the Cadastros. */
  suppliers: number[];
  /** Ids assigned as `base + n + 1`, per table. */
  baseIds: { requests: number; items: number; quotes: number };
}

/**
 * The OPME request of each surgery that went through 'OPME em Cotação', as the clinic keeps it
 * (ADR 0021): the kit's items, the quotes the OPME suppliers sent while the card was in the stage
 * (each pricing every item, a few leaving one out), and, once the surgery was approved, the chosen
 * quote (usually the cheapest complete one) with its reason. Cards still in the stage, or cancelled
 * there, have from none to three quotes and no choice. The request's KPI row (kpi_opme_requests)
 * and its quote facts come from the triggers of migrations 0028 and 0030.
 */
export class OpmeWriter {
  requests = 0;
  items = 0;
  quotes = 0;
  prices = 0;
  private readonly insertRequest: Database.Statement;
  private readonly insertItem: Database.Statement;
  private readonly insertQuote: Database.Statement;
  private readonly insertPrice: Database.Statement;
  private readonly choose: Database.Statement;

  constructor(private readonly env: OpmeEnv) {
    const { conn } = env;
    this.insertRequest = conn.prepare("INSERT INTO opme_requests (id, surgery_id, created_at, updated_at) VALUES (?, ?, ?, ?)");
    this.insertItem = conn.prepare(
      "INSERT INTO opme_items (id, request_id, description, quantity, anvisa_registration, position, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    );
    this.insertQuote = conn.prepare(
      "INSERT INTO opme_quotes (id, request_id, supplier_id, valid_until, notes, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    );
    this.insertPrice = conn.prepare("INSERT INTO opme_quote_prices (quote_id, item_id, unit_price_cents) VALUES (?, ?, ?)");
    // The chosen quote is written after the quotes it names (its foreign key).
    this.choose = conn.prepare("UPDATE opme_requests SET chosen_quote_id = ?, choice_reason = ?, updated_at = ? WHERE id = ?");
  }

  /**
   * Writes the OPME request of surgery `surgeryId` (of catalogue type `surgeryType`), whose stage
   * history is `path` with the instants `moves`; `priceIndex` deflates today's prices to the
   * surgery's time. Returns the number of rows written (0 when the path never reached the stage).
   */
  write(surgeryId: number, surgeryType: string, path: PipelineStage[], moves: number[], priceIndex: number): number {
    const kit = KITS[surgeryType];
    const at = path.indexOf("opme_cotacao");
    if (!kit || at < 0) return 0;
    const { random, calendar, nowMs, adminId, suppliers, baseIds } = this.env;
    const openedAt = moves[at];
    const next = path[at + 1] as PipelineStage | undefined;
    const closedAt = next ? moves[at + 1] : nowMs;
    const approved = next === "aprovado";

    const requestId = baseIds.requests + ++this.requests;
    this.insertRequest.run(requestId, surgeryId, openedAt, openedAt);
    const itemIds = kit.map((item, position) => {
      const itemId = baseIds.items + ++this.items;
      this.insertItem.run(itemId, requestId, item.description, item.quantity, item.anvisa, position, openedAt, openedAt);
      return itemId;
    });

    // Approved cases asked the three suppliers (a few got two answers); open or dropped ones stopped anywhere.
    const nSuppliers = approved ? (random.chance(0.85) ? 3 : 2) : random.weighted([[0, 15], [1, 30], [2, 30], [3, 25]] as const);
    const senders = random.sample(suppliers, nSuppliers);
    // Now and then a supplier sends a revised quote.
    if (senders.length > 0 && random.chance(0.05)) senders.push(senders[0]);
    const span = Math.max(closedAt - openedAt - MINUTE, MINUTE);
    const times = senders.map(() => openedAt + Math.floor(random.next() * span)).sort((a, b) => a - b);

    const pricesBefore = this.prices;
    let best = -1;
    let bestTotal = Infinity;
    const quoteIds: number[] = [];
    senders.forEach((supplierId, k) => {
      const quoteId = baseIds.quotes + ++this.quotes;
      const createdAt = times[k];
      const validUntil = isoOfDay(calendar.dayOf(createdAt) + random.int(15, 45));
      this.insertQuote.run(quoteId, requestId, supplierId, validUntil, random.chance(0.3) ? random.pick(QUOTE_NOTES) : null, adminId, createdAt, createdAt);
      quoteIds.push(quoteId);
      // A supplier's level (one price list) and a little noise per item; 1 in 20 quotes leaves an item out.
      const level = random.int(88, 118) / 100;
      const missing = kit.length > 1 && random.chance(0.05) ? random.int(0, kit.length - 1) : -1;
      let total = 0;
      kit.forEach((item, i) => {
        if (i === missing) return;
        const cents = Math.round(item.cents * priceIndex * level * (random.int(97, 103) / 100));
        this.insertPrice.run(quoteId, itemIds[i], cents);
        this.prices++;
        total += cents * item.quantity;
      });
      if (missing < 0 && total < bestTotal) {
        best = k;
        bestTotal = total;
      }
    });

    let rows = 1 + kit.length + quoteIds.length + (this.prices - pricesBefore);
    if (approved && quoteIds.length > 0) {
      // Usually the cheapest complete quote; sometimes the hospital's standard material wins.
      const k = best >= 0 && random.chance(0.8) ? best : random.int(0, quoteIds.length - 1);
      const reason = k === best ? REASONS[0] : random.pick(REASONS.slice(1));
      this.choose.run(quoteIds[k], reason, Math.max(closedAt - random.int(1, 12) * HOUR, times[times.length - 1] + MINUTE), requestId);
      rows++;
    }
    return rows;
  }
}
