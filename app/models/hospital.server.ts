import { hospitals, surgeries } from "~db/schema";
import { db } from "~/.server/db";
import type { ListParams } from "~/lib/list-params";
import { hospitalSearchText } from "~/lib/master-data-search";
import type { HospitalInput } from "~/validation/master-data";
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

export { hospitalSearchText };

const HOSPITAL = {
  table: hospitals,
  entity: "hospital",
  notFound: "Hospital não encontrado.",
  thisOne: "este hospital",
  nameOf: (row) => String(row.name),
  searchText: hospitalSearchText,
  references: (conn, id) => referenceCount(conn, surgeries, surgeries.hospitalId, id, "cirurgia", "cirurgias"),
} satisfies CatalogSpec<HospitalInput>;

const HOSPITAL_FIELDS = {
  name: hospitals.name,
  cnpj: hospitals.cnpj,
  cnes: hospitals.cnes,
  address: hospitals.address,
  city: hospitals.city,
  state: hospitals.state,
  postalCode: hospitals.postalCode,
  contactEmail: hospitals.contactEmail,
  contactPhone: hospitals.contactPhone,
  type: hospitals.type,
  accreditation: hospitals.accreditation,
  active: hospitals.active,
  notes: hospitals.notes,
};

export function listHospitals(state: ListParams<"name">) {
  return catalogPage(hospitals, state, searchIn(hospitals, state.q), nameOrder(hospitals, state.dir), HOSPITAL_FIELDS);
}

export function hospitalExport({ q, dir }: Omit<ListParams<"name">, "page">) {
  const query = db.select(HOSPITAL_FIELDS).from(hospitals).where(searchIn(hospitals, q)).orderBy(...orderBy(nameOrder(hospitals, dir)));
  return { fields: HOSPITAL_FIELDS, query };
}

export type Hospital = typeof hospitals.$inferSelect;
export const getHospital = (id: number) => getRecord<Hospital>(hospitals, id);
export const createHospital = (userId: number, input: HospitalInput) => createRecord(HOSPITAL, userId, input);
export const updateHospital = (userId: number, id: number, input: HospitalInput) => updateRecord(HOSPITAL, userId, id, input);
export const deleteHospital = (userId: number, id: number) => deleteRecord(HOSPITAL, userId, id);
export const hospitalDeleteBlock = (hospital: Pick<Hospital, "id" | "name">) => deleteBlock(HOSPITAL, hospital.id, hospital.name);
