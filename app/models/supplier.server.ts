import { asc, eq } from "drizzle-orm";
import { orders, suppliers } from "~db/schema";
import { db } from "~/.server/db";
import type { ListParams } from "~/lib/list-params";
import { supplierSearchText } from "~/lib/master-data-search";
import type { SupplierInput } from "~/validation/master-data";
import {
  type CatalogSpec,
  catalogPage,
  createRecord,
  deleteBlock,
  deleteRecord,
  getRecord,
  nameOrder,
  orderBy,
  referenceCount,
  searchIn,
  updateRecord,
} from "./master-data.server";

export { supplierSearchText };

const SUPPLIER = {
  table: suppliers,
  entity: "supplier",
  notFound: "Fornecedor não encontrado.",
  thisOne: "este fornecedor",
  nameOf: (row) => String(row.name),
  searchText: supplierSearchText,
  references: (conn, id) => referenceCount(conn, orders, orders.supplierId, id, "pedido", "pedidos"),
} satisfies CatalogSpec<SupplierInput>;

const SUPPLIER_FIELDS = {
  name: suppliers.name,
  cnpj: suppliers.cnpj,
  type: suppliers.type,
  contactEmail: suppliers.contactEmail,
  contactPhone: suppliers.contactPhone,
  address: suppliers.address,
  paymentTermsDays: suppliers.paymentTermsDays,
  qualityRating: suppliers.qualityRating,
  active: suppliers.active,
  notes: suppliers.notes,
};

export function listSuppliers(state: ListParams<"name">) {
  return catalogPage(suppliers, state, searchIn(suppliers, state.q), nameOrder(suppliers, state.dir), SUPPLIER_FIELDS);
}

export function supplierExport({ q, dir }: Omit<ListParams<"name">, "page">) {
  const query = db.select(SUPPLIER_FIELDS).from(suppliers).where(searchIn(suppliers, q)).orderBy(...orderBy(nameOrder(suppliers, dir)));
  return { fields: SUPPLIER_FIELDS, query };
}

/** Active suppliers by name, for the order dialog's picker (SPEC §7), plus `includeId` (the order's own). */
export function activeSupplierOptions(includeId?: number | null) {
  const rows = db
    .select({ id: suppliers.id, name: suppliers.name, active: suppliers.active })
    .from(suppliers)
    .where(eq(suppliers.active, true))
    .orderBy(asc(suppliers.searchText), asc(suppliers.id))
    .limit(500)
    .all();
  if (includeId && !rows.some((row) => row.id === includeId)) {
    const own = getSupplier(includeId);
    if (own) rows.unshift({ id: own.id, name: own.name, active: own.active });
  }
  return rows;
}

export type Supplier = typeof suppliers.$inferSelect;
export const getSupplier = (id: number) => getRecord<Supplier>(suppliers, id);
export const createSupplier = (userId: number, input: SupplierInput) => createRecord(SUPPLIER, userId, input);
export const updateSupplier = (userId: number, id: number, input: SupplierInput) => updateRecord(SUPPLIER, userId, id, input);
export const deleteSupplier = (userId: number, id: number) => deleteRecord(SUPPLIER, userId, id);
export const supplierDeleteBlock = (supplier: Pick<Supplier, "id" | "name">) => deleteBlock(SUPPLIER, supplier.id, supplier.name);
