import { eq } from "drizzle-orm";
import { payerTissSettings, payers, surgeries } from "~db/schema";
import { type DB, type Tx, db } from "~/.server/db";
import type { ListParams } from "~/lib/list-params";
import { payerSearchText } from "~/lib/master-data-search";
import type { PayerInput } from "~/validation/master-data";
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

export { payerSearchText };

const PAYER = {
  table: payers,
  entity: "payer",
  notFound: "Pagador não encontrado.",
  thisOne: "este pagador",
  nameOf: (row) => String(row.name),
  searchText: payerSearchText,
  references: (conn, id) => referenceCount(conn, surgeries, surgeries.payerId, id, "cirurgia", "cirurgias"),
  related: { read: readTissSettings, write: writeTissSettings },
} satisfies CatalogSpec<PayerInput>;

/** The payer's TISS settings as the form's fields; none until the clinic's code at the insurer is known. */
function readTissSettings(conn: DB | Tx, payerId: number) {
  const row = conn
    .select({ tissVersion: payerTissSettings.tissVersion, tissProviderCode: payerTissSettings.providerCode })
    .from(payerTissSettings)
    .where(eq(payerTissSettings.payerId, payerId))
    .get();
  return row ?? { tissVersion: null, tissProviderCode: null };
}

/** Kept with the payer: a provider code saves the settings, an empty one removes them (guides then name what is missing). */
function writeTissSettings(tx: Tx, payerId: number, input: PayerInput) {
  if (!input.tissProviderCode) {
    tx.delete(payerTissSettings).where(eq(payerTissSettings.payerId, payerId)).run();
    return;
  }
  const settings = { tissVersion: input.tissVersion, providerCode: input.tissProviderCode, updatedAt: new Date() };
  tx.insert(payerTissSettings)
    .values({ payerId, ...settings })
    .onConflictDoUpdate({ target: payerTissSettings.payerId, set: settings })
    .run();
}

/** The columns of the list and of its export; the fee rules are read by Honorários (see db/schema/master-data.ts). */
const PAYER_FIELDS = {
  name: payers.name,
  type: payers.type,
  cnpj: payers.cnpj,
  ansRegistration: payers.ansRegistration,
  contactEmail: payers.contactEmail,
  contactPhone: payers.contactPhone,
  paymentTermsDays: payers.paymentTermsDays,
  coveragePercentage: payers.coveragePercentage,
  assistant1FeePercent: payers.assistant1FeePercent,
  assistant2FeePercent: payers.assistant2FeePercent,
  assistant3FeePercent: payers.assistant3FeePercent,
  assistant4FeePercent: payers.assistant4FeePercent,
  multipleSameRoutePercent: payers.multipleSameRoutePercent,
  multipleOtherRoutePercent: payers.multipleOtherRoutePercent,
  urgencySurchargePercent: payers.urgencySurchargePercent,
  cbhpmEdition: payers.cbhpmEdition,
  cbhpmBand: payers.cbhpmBand,
  active: payers.active,
  notes: payers.notes,
};

export function listPayers(state: ListParams<"name">) {
  return catalogPage(payers, state, searchIn(payers, state.q), nameOrder(payers, state.dir), PAYER_FIELDS);
}

export function payerExport({ q, dir }: Omit<ListParams<"name">, "page">) {
  const query = db.select(PAYER_FIELDS).from(payers).where(searchIn(payers, q)).orderBy(...orderBy(nameOrder(payers, dir)));
  return { fields: PAYER_FIELDS, query };
}

export type Payer = typeof payers.$inferSelect;
/** A payer with its TISS settings, for the edit dialog. */
export function getPayer(id: number) {
  const payer = getRecord<Payer>(payers, id);
  return payer ? { ...payer, ...readTissSettings(db, id) } : null;
}
export const createPayer = (userId: number, input: PayerInput) => createRecord(PAYER, userId, input);
export const updatePayer = (userId: number, id: number, input: PayerInput) => updateRecord(PAYER, userId, id, input);
export const deletePayer = (userId: number, id: number) => deleteRecord(PAYER, userId, id);
export const payerDeleteBlock = (payer: Pick<Payer, "id" | "name">) => deleteBlock(PAYER, payer.id, payer.name);
