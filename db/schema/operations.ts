import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { ORDER_STATUSES, SOP_STATUSES } from "../../app/lib/enums";
import { users } from "./auth";
import { patients } from "./clinical";
import { id, timestamps } from "./columns";
import { enumCheck, searchText } from "./helpers";
import { suppliers } from "./master-data";

/** Standard operating procedures. Every edit increments `version` (SPEC §4). */
export const sops = sqliteTable(
  "sops",
  {
    id: id(),
    title: text("title").notNull(),
    category: text("category").notNull(),
    contentMd: text("content_md").notNull(),
    status: text("status", { enum: SOP_STATUSES }).notNull().default("draft"),
    version: integer("version").notNull().default(1),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    searchText: searchText(),
    ...timestamps(),
  },
  (t) => [
    enumCheck("sops_status_check", t.status, SOP_STATUSES),
    check("sops_version_check", sql`${t.version} >= 1`),
    index("sops_created_at_idx").on(t.createdAt),
    index("sops_status_idx").on(t.status),
    index("sops_category_idx").on(t.category),
  ],
);

/** Item structure kept in `orders.details_json`. */
export type OrderDetails = {
  items?: Array<{ description: string; quantity: number; unitCents?: number | null; reference?: string | null }>;
  notes?: string | null;
  surgeryId?: number | null;
  [key: string]: unknown;
};

/** Orders (OPME, materials, exams…). Patient and supplier are optional and cleared when they go. */
export const orders = sqliteTable(
  "orders",
  {
    id: id(),
    patientId: integer("patient_id").references(() => patients.id, { onDelete: "set null" }),
    orderType: text("order_type").notNull(),
    status: text("status", { enum: ORDER_STATUSES }).notNull().default("pending"),
    supplierId: integer("supplier_id").references(() => suppliers.id, { onDelete: "set null" }),
    totalCents: integer("total_cents"),
    detailsJson: text("details_json", { mode: "json" }).$type<OrderDetails>(),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    searchText: searchText(),
    ...timestamps(),
  },
  (t) => [
    enumCheck("orders_status_check", t.status, ORDER_STATUSES),
    check("orders_total_check", sql`${t.totalCents} is null or ${t.totalCents} >= 0`),
    check("orders_details_json_check", sql`${t.detailsJson} is null or json_valid(${t.detailsJson})`),
    index("orders_created_at_idx").on(t.createdAt),
    index("orders_status_idx").on(t.status),
    index("orders_patient_idx").on(t.patientId),
    index("orders_supplier_idx").on(t.supplierId),
  ],
);
