import { sql } from "drizzle-orm";
import { type AnySQLiteColumn, check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "./auth";
import { id, timestamps } from "./columns";
import { isoDateCheck } from "./helpers";
import { suppliers } from "./master-data";
import { surgeries } from "./surgery";

/**
 * OPME (órteses, próteses e materiais especiais) of a surgery in 'OPME em Cotação' (issue 8,
 * ADR 0021): one request per surgery, its items, the suppliers' quotes with a unit price per item,
 * and the quote the clinic chose with its reason.
 */
export const opmeRequests = sqliteTable(
  "opme_requests",
  {
    id: id(),
    surgeryId: integer("surgery_id")
      .notNull()
      .references(() => surgeries.id, { onDelete: "cascade" }),
    chosenQuoteId: integer("chosen_quote_id").references((): AnySQLiteColumn => opmeQuotes.id, { onDelete: "set null" }),
    choiceReason: text("choice_reason"),
    ...timestamps(),
  },
  (t) => [uniqueIndex("opme_requests_surgery_unique").on(t.surgeryId)],
);

export const opmeItems = sqliteTable(
  "opme_items",
  {
    id: id(),
    requestId: integer("request_id")
      .notNull()
      .references(() => opmeRequests.id, { onDelete: "cascade" }),
    description: text("description").notNull(),
    quantity: integer("quantity").notNull(),
    /** ANVISA registration (11 digits), when known. */
    anvisaRegistration: text("anvisa_registration"),
    position: integer("position").notNull().default(0),
    ...timestamps(),
  },
  (t) => [
    check("opme_items_quantity_check", sql`${t.quantity} between 1 and 9999`),
    check("opme_items_anvisa_check", sql`${t.anvisaRegistration} is null or (length(${t.anvisaRegistration}) = 11 and ${t.anvisaRegistration} not glob '*[^0-9]*')`),
    index("opme_items_request_position_idx").on(t.requestId, t.position),
  ],
);

/** A supplier's quote. A supplier may send several (a revision); only distinct suppliers count toward three. */
export const opmeQuotes = sqliteTable(
  "opme_quotes",
  {
    id: id(),
    requestId: integer("request_id")
      .notNull()
      .references(() => opmeRequests.id, { onDelete: "cascade" }),
    supplierId: integer("supplier_id")
      .notNull()
      .references(() => suppliers.id, { onDelete: "restrict" }),
    /** Last day the prices hold (ISO date). */
    validUntil: text("valid_until").notNull(),
    notes: text("notes"),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    ...timestamps(),
  },
  (t) => [
    isoDateCheck("opme_quotes_valid_until_check", t.validUntil),
    // The board's 'OPME: n/3 cotações' counts distinct suppliers of a request from this index alone.
    index("opme_quotes_request_supplier_idx").on(t.requestId, t.supplierId),
    index("opme_quotes_supplier_idx").on(t.supplierId),
  ],
);

/** A quote's unit price for one item, in cents. */
export const opmeQuotePrices = sqliteTable(
  "opme_quote_prices",
  {
    quoteId: integer("quote_id")
      .notNull()
      .references(() => opmeQuotes.id, { onDelete: "cascade" }),
    itemId: integer("item_id")
      .notNull()
      .references(() => opmeItems.id, { onDelete: "cascade" }),
    unitPriceCents: integer("unit_price_cents").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.quoteId, t.itemId] }),
    check("opme_quote_prices_price_check", sql`${t.unitPriceCents} >= 0`),
    index("opme_quote_prices_item_idx").on(t.itemId),
  ],
);
