import { sql } from "drizzle-orm";
import { check, index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { CBHPM_BANDS, HOSPITAL_TYPES, MEDICAL_CODE_TYPES, PAYER_TYPES, SUPPLIER_TYPES } from "../../app/lib/enums";
import { bool, id, timestamps } from "./columns";
import { cnpjCheck, digitsCheck, enumCheck, searchText } from "./helpers";

/**
 * Cadastros (SPEC §3): payers, hospitals, suppliers and medical codes. CNPJs are stored unpunctuated
 * (14 characters, numeric or alphanumeric) and are unique per table (checked by the models: older
 * databases may hold duplicates, which a unique index would refuse to migrate).
 */

/** A whole percentage column with its default, bounded 0..100 by `percentCheck`. */
const percent = (name: string, fallback: number) => integer(name).notNull().default(fallback);
const percentCheck = (name: string, column: Parameters<typeof enumCheck>[1]) => check(name, sql`${column} between 0 and 100`);

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
    /** Registro ANS of a health insurer: 6 digits. */
    ansRegistration: text("ans_registration"),
    // ── Fee rules (Honorários; DOMAIN.md §1, CBHPM items 2.1, 4 and 5). Whole percentages. ──
    /** Share of the surgeon's fee paid to the 1st..4th assistant (CBHPM 5.1: 60/40/30/30; old tables 30/20/20/20). */
    assistant1FeePercent: percent("assistant_1_fee_percent", 60),
    assistant2FeePercent: percent("assistant_2_fee_percent", 40),
    assistant3FeePercent: percent("assistant_3_fee_percent", 30),
    assistant4FeePercent: percent("assistant_4_fee_percent", 30),
    /** Share paid for each procedure after the highest-porte one, same access route (CBHPM 4.1: 50). */
    multipleSameRoutePercent: percent("multiple_same_route_percent", 50),
    /** Share paid for each procedure after the principal, different access route (CBHPM 4.2: 70). */
    multipleOtherRoutePercent: percent("multiple_other_route_percent", 70),
    /** Surcharge on the portes for urgency: 19h–7h, weekends and holidays (CBHPM 2.1: 30). */
    urgencySurchargePercent: percent("urgency_surcharge_percent", 30),
    /** CBHPM edition the payer pays by ('2022'), null when not agreed. */
    cbhpmEdition: text("cbhpm_edition"),
    /** Column of the CBHPM value table: original, faixa_1, faixa_2 or faixa_3 (DOMAIN.md §1). */
    cbhpmBand: text("cbhpm_band", { enum: CBHPM_BANDS }).notNull().default("original"),
    active: bool("active").notNull().default(true),
    notes: text("notes"),
    searchText: searchText(),
    ...timestamps(),
  },
  (t) => [
    enumCheck("payers_type_check", t.type, PAYER_TYPES),
    enumCheck("payers_cbhpm_band_check", t.cbhpmBand, CBHPM_BANDS),
    cnpjCheck("payers_cnpj_check", t.cnpj),
    digitsCheck("payers_ans_registration_check", t.ansRegistration, 6),
    percentCheck("payers_assistant_1_fee_check", t.assistant1FeePercent),
    percentCheck("payers_assistant_2_fee_check", t.assistant2FeePercent),
    percentCheck("payers_assistant_3_fee_check", t.assistant3FeePercent),
    percentCheck("payers_assistant_4_fee_check", t.assistant4FeePercent),
    percentCheck("payers_multiple_same_route_check", t.multipleSameRoutePercent),
    percentCheck("payers_multiple_other_route_check", t.multipleOtherRoutePercent),
    percentCheck("payers_urgency_surcharge_check", t.urgencySurchargePercent),
    check("payers_payment_terms_check", sql`${t.paymentTermsDays} >= 0`),
    check("payers_coverage_check", sql`${t.coveragePercentage} between 0 and 100`),
    index("payers_name_idx").on(t.name),
    index("payers_type_idx").on(t.type),
    index("payers_active_name_idx").on(t.active, t.name),
    index("payers_search_text_idx").on(t.searchText),
    index("payers_cnpj_idx").on(t.cnpj),
  ],
);

export const hospitals = sqliteTable(
  "hospitals",
  {
    id: id(),
    name: text("name").notNull(),
    cnpj: text("cnpj"),
    /** Cadastro Nacional de Estabelecimentos de Saúde: 7 digits. */
    cnes: text("cnes"),
    address: text("address"),
    city: text("city"),
    state: text("state"),
    /** CEP as '00000-000'. */
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
    digitsCheck("hospitals_cnes_check", t.cnes, 7),
    index("hospitals_name_idx").on(t.name),
    index("hospitals_search_text_idx").on(t.searchText),
    index("hospitals_cnpj_idx").on(t.cnpj),
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
    index("suppliers_search_text_idx").on(t.searchText),
    index("suppliers_cnpj_idx").on(t.cnpj),
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
    /** CBHPM porte of the surgeon's fee, '1A'..'14C' (DOMAIN.md §1); CBHPM codes only. */
    porte: text("porte"),
    /** Number of assistants (auxiliares) the CBHPM sets for the procedure, 0..4. */
    assistantsCount: integer("assistants_count"),
    /** CBHPM porte anestésico, 0..8 (0: no anaesthetist). */
    anestheticPorte: integer("anesthetic_porte"),
    active: bool("active").notNull().default(true),
    searchText: searchText(),
    ...timestamps(),
  },
  (t) => [
    enumCheck("medical_codes_type_check", t.type, MEDICAL_CODE_TYPES),
    check("medical_codes_porte_check", sql`${t.porte} is null or ${t.porte} glob '[1-9][ABC]' or ${t.porte} glob '1[0-4][ABC]'`),
    check("medical_codes_assistants_check", sql`${t.assistantsCount} is null or ${t.assistantsCount} between 0 and 4`),
    check("medical_codes_anesthetic_porte_check", sql`${t.anestheticPorte} is null or ${t.anestheticPorte} between 0 and 8`),
    check("medical_codes_price_check", sql`${t.priceCents} is null or ${t.priceCents} >= 0`),
    uniqueIndex("medical_codes_type_code_unique").on(t.type, t.code),
    index("medical_codes_code_idx").on(t.code),
    index("medical_codes_category_idx").on(t.category),
    index("medical_codes_active_idx").on(t.active),
    index("medical_codes_search_text_idx").on(t.searchText),
  ],
);
