import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { ORDER_STATUSES, SOP_STATUSES } from "../../app/lib/enums";
import { users } from "./auth";
import { patients } from "./clinical";
import { id, instant, timestamps } from "./columns";
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

/**
 * Every saved state of a SOP, one row per version (the current one included), so old versions stay
 * readable and two can be compared. Written by the SOP model in the same transaction as the SOP.
 */
export const sopVersions = sqliteTable(
  "sop_versions",
  {
    id: id(),
    sopId: integer("sop_id")
      .notNull()
      .references(() => sops.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    title: text("title").notNull(),
    category: text("category").notNull(),
    contentMd: text("content_md").notNull(),
    status: text("status", { enum: SOP_STATUSES }).notNull(),
    editedBy: integer("edited_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: instant("created_at")
      .notNull()
      .$defaultFn(() => new Date()),
  },
  (t) => [
    enumCheck("sop_versions_status_check", t.status, SOP_STATUSES),
    uniqueIndex("sop_versions_sop_version_unique").on(t.sopId, t.version),
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
    index("orders_status_created_idx").on(t.status, t.createdAt),
    index("orders_patient_idx").on(t.patientId),
    index("orders_supplier_idx").on(t.supplierId),
  ],
);

/** The history of an order's status: one row per change, the creation included (`from_status` null). */
export const orderStatusChanges = sqliteTable(
  "order_status_changes",
  {
    id: id(),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    fromStatus: text("from_status", { enum: ORDER_STATUSES }),
    toStatus: text("to_status", { enum: ORDER_STATUSES }).notNull(),
    changedBy: integer("changed_by").references(() => users.id, { onDelete: "set null" }),
    changedAt: instant("changed_at")
      .notNull()
      .$defaultFn(() => new Date()),
  },
  (t) => [
    enumCheck("order_status_changes_from_check", t.fromStatus, ORDER_STATUSES),
    enumCheck("order_status_changes_to_check", t.toStatus, ORDER_STATUSES),
    index("order_status_changes_order_idx").on(t.orderId, t.changedAt),
  ],
);
