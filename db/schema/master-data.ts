import { sql } from "drizzle-orm";
import { check, index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { HOSPITAL_TYPES, MEDICAL_CODE_TYPES, PAYER_TYPES, SUPPLIER_TYPES } from "../../app/lib/enums";
import { bool, id, timestamps } from "./columns";
import { cnpjCheck, enumCheck, searchText } from "./helpers";

/** Cadastros (SPEC §3): payers, hospitals, suppliers and medical codes. CNPJs are stored unpunctuated. */

export const payers = sqliteTable(
  "payers",
  {
    id: id(),
    name: text("name").notNull(),
    type: text("type", { enum: PAYER_TYPES }).notNull().default("insurance"),
    cnpj: text("cnpj"),
    contactEmail: text("contact_email"),
    contactPhone: text("contact_phone"),
    paymentTermsDays: integer("payment_terms_days").notNull().default(30),
    coveragePercentage: real("coverage_percentage").notNull().default(100),
    active: bool("active").notNull().default(true),
    notes: text("notes"),
    searchText: searchText(),
    ...timestamps(),
  },
  (t) => [
    enumCheck("payers_type_check", t.type, PAYER_TYPES),
    cnpjCheck("payers_cnpj_check", t.cnpj),
    check("payers_payment_terms_check", sql`${t.paymentTermsDays} >= 0`),
    check("payers_coverage_check", sql`${t.coveragePercentage} between 0 and 100`),
    index("payers_name_idx").on(t.name),
    index("payers_type_idx").on(t.type),
    index("payers_active_name_idx").on(t.active, t.name),
  ],
);

export const hospitals = sqliteTable(
  "hospitals",
  {
    id: id(),
    name: text("name").notNull(),
    cnpj: text("cnpj"),
    address: text("address"),
    city: text("city"),
    state: text("state"),
    postalCode: text("postal_code"),
    contactEmail: text("contact_email"),
    contactPhone: text("contact_phone"),
    type: text("type", { enum: HOSPITAL_TYPES }).notNull().default("private"),
    accreditation: text("accreditation"),
    active: bool("active").notNull().default(true),
    notes: text("notes"),
    searchText: searchText(),
    ...timestamps(),
  },
  (t) => [
    enumCheck("hospitals_type_check", t.type, HOSPITAL_TYPES),
    cnpjCheck("hospitals_cnpj_check", t.cnpj),
    check("hospitals_state_check", sql`${t.state} is null or length(${t.state}) = 2`),
    index("hospitals_name_idx").on(t.name),
    index("hospitals_type_idx").on(t.type),
    index("hospitals_active_name_idx").on(t.active, t.name),
  ],
);

export const suppliers = sqliteTable(
  "suppliers",
  {
    id: id(),
    name: text("name").notNull(),
    cnpj: text("cnpj"),
    type: text("type", { enum: SUPPLIER_TYPES }).notNull().default("opme"),
    contactEmail: text("contact_email"),
    contactPhone: text("contact_phone"),
    address: text("address"),
    paymentTermsDays: integer("payment_terms_days").notNull().default(30),
    qualityRating: real("quality_rating").notNull().default(5),
    active: bool("active").notNull().default(true),
    notes: text("notes"),
    searchText: searchText(),
    ...timestamps(),
  },
  (t) => [
    enumCheck("suppliers_type_check", t.type, SUPPLIER_TYPES),
    cnpjCheck("suppliers_cnpj_check", t.cnpj),
    check("suppliers_payment_terms_check", sql`${t.paymentTermsDays} >= 0`),
    check("suppliers_quality_rating_check", sql`${t.qualityRating} between 0 and 5`),
    index("suppliers_name_idx").on(t.name),
    index("suppliers_type_idx").on(t.type),
    index("suppliers_active_name_idx").on(t.active, t.name),
  ],
);

/** ICD-10, CBHPM, TUSS and custom codes. A code is unique within its type and never changes type. */
export const medicalCodes = sqliteTable(
  "medical_codes",
  {
    id: id(),
    code: text("code").notNull(),
    type: text("type", { enum: MEDICAL_CODE_TYPES }).notNull(),
    description: text("description").notNull(),
    category: text("category"),
    priceCents: integer("price_cents"),
    active: bool("active").notNull().default(true),
    searchText: searchText(),
    ...timestamps(),
  },
  (t) => [
    enumCheck("medical_codes_type_check", t.type, MEDICAL_CODE_TYPES),
    check("medical_codes_price_check", sql`${t.priceCents} is null or ${t.priceCents} >= 0`),
    uniqueIndex("medical_codes_type_code_unique").on(t.type, t.code),
    index("medical_codes_code_idx").on(t.code),
    index("medical_codes_category_idx").on(t.category),
    index("medical_codes_active_idx").on(t.active),
  ],
);
