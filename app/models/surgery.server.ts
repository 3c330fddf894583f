import { type SQL, and, asc, count, desc, eq, getTableName, inArray, or, sql } from "drizzle-orm";
import {
  doctors,
  financialTransactions,
  hospitals,
  patients,
  payers,
  pipelineStages,
  profiles,
  surgeries,
  surgeryFeeLines,
  surgerySearchKeys,
} from "~db/schema";
import { diffChanges, recordAudit } from "~/.server/audit";
import { type DB, type Tx, db, prepared } from "~/.server/db";
import { ownTextKey, surgerySearchKeyColumns } from "~/.server/search-keys";
import { DomainError } from "~/.server/domain-error";
import { enqueueCalendarPush } from "~/.server/google-calendar-outbox";
import { isForeignKeyViolation } from "~/.server/sql-errors";
import { isoDateInClinic, toDateTimeLocalValue, todayIsoInClinic } from "~/lib/dates";
import type { SurgeryStatus } from "~/lib/enums";
import { type KeysetOrder, keysetPage, pageUntilWrite } from "~/.server/pagination";
import { PAGE_SIZE, type ListParams, REGISTRY_OPTIONS_LIMIT, draftFromUrl, parseId } from "~/lib/list-params";
import { centsToReaisInput } from "~/lib/money";
import { normalizeSearch } from "~/lib/search";
import { cleanQueryText, plural } from "~/lib/text";
import type { SurgeryFilters, SurgerySort } from "~/lib/lists";
import { INITIAL_PIPELINE_STAGE, type PipelineStage, surgeryStatusForStage } from "~/lib/pipeline";
import { ftsPhrase, likeWord, pairTermsQuery } from "~/.server/search-sql";
import { cachedUntilWrite, tablesWriteCache } from "~/.server/data-cache";
import { OTHER_CHOICE, SURGERY_FORM_FIELDS, type SurgeryInput } from "~/validation/surgery";
import { OPME_JUSTIFICATION_MESSAGE, approvalNeedsJustification } from "~/lib/opme";
import { opmeStateForMove } from "./opme.server";
import { ansColumnsFor, clinicHolidaySet } from "./pipeline.server";
import { instantiateChecklist } from "./stage-checklist.server";
import { isSurgeryConcluded, syncReceivableOnConclusion } from "./receivable.server";
import { type OwnSource, type WordSearchTable, fewOwnKeys, planWordSearch, rowSearch, searchedTables, wordSearchLocate, wordSearchPage } from "./word-search.server";
import { doctorPickerOptions, patientPickerOptions } from "./picker-options.server";
import { registryOption } from "~/lib/form-options";

export { SURGERY_LIST, SURGERY_SORTS } from "~/lib/lists";

/** Receivable states that mean the surgery has been billed: its record is financial history. */
const BILLED_RECEIVABLE_STATUSES = ["faturado", "pendente", "pago", "glosa"] as const;


/** A rule of the domain the user can fix (unknown patient, inactive doctor, surgery with money attached …). */
export class SurgeryError extends DomainError<keyof SurgeryInput & string> {}

// ---------------------------------------------------------------------------- search

/** The surgeries' keys without the guide (surgery_search_keys), sought in `surgeries_search_class_idx`. */
const CLASS_KEYS = fewOwnKeys(surgerySearchKeys, surgeries.searchClass, "surgeries_search_class_idx");

/**
 * Search over patient name, doctor name, surgery type, hospital, payer and guide number (accent- and
 * case-insensitive), driven by its words' own matches (./word-search.server.ts). The own text is
 * kept as two keys (migration 0043): type, hospital and payer, whose distinct values are few (a
 * word tests each once in surgery_search_keys and seeks the matching ones in
 * `surgeries_search_class_idx`, as the appointments' do), and the guide number, unique to each
 * surgery, in a trigram index of the guides alone (`surgery_guides_search`).
 */
export const SURGERY_SEARCH: WordSearchTable = {
  table: surgeries,
  versioned: "surgeries",
  id: surgeries.id,
  patientId: surgeries.patientId,
  // A third of the patients have surgeries: 'silva' reads 3 000 of them, not all 10 000 Silvas,
  // each sought in the patient index (the count 2–4 ms against 5–10).
  patientIndex: "surgery_patients_search",
  doctorId: surgeries.doctorId,
  storedKey: surgeries.searchClass,
  // The key without the guide first (in the index a part is read through, where the whole key is
  // not), then the guide (the whole key after it and ' | '); a row without keys, its text folded.
  ownHolds: (word) =>
    sql`coalesce(${likeWord(surgeries.searchClass, word)} or ${likeWord(sql`substr(${surgeries.searchText}, length(${surgeries.searchClass}) + 4)`, word)}, ${likeWord(ownTextKey.surgeries, word)})`,
  // The rows of the keys holding the word, and those of the guides holding it whose key does not.
  // A word of one character that a guide may hold cannot be told from the guides' trigrams.
  ownIndexed: (word) => {
    const guides = guidesHolding(word);
    if (guides === undefined) return null;
    const byKeys = CLASS_KEYS.rows(word);
    const sources: OwnSource[] = byKeys ? [byKeys] : [];
    if (guides) sources.push({ from: GUIDES_THEN_ROWS, where: and(sql`surgery_guides_search match ${guides}`, byKeys ? sql`not (${byKeys})` : undefined)! });
    return sources;
  },
  indexes: {
    patient: "surgeries_patient_date_idx",
    // 2 MB against the covering index's 15 (100 000 surgeries): 'silva' counted, the first view
    // after a write, 6.7 → 1.0 ms in plain SQL with the server's 4 MB page cache.
    patientRows: "surgeries_patient_created_idx",
    doctor: "surgeries_doctor_date_idx",
    own: "surgeries_search_class_idx",
    unkeyed: "surgeries_search_keys_missing_idx",
  },
  // Its keys are few, but the patients' keys passed over for a rare short word (`byPatientKeys`:
  // 200 000 keys, then each holder's surgeries sought) cost more than testing the word on the rows
  // of the other words: a third of the patients have surgeries ('maria x' 170 ms against 11).
  rareShortWordDrives: false,
  ownPairs: true,
  order: surgeries.scheduledDate,
  // Keys grouped by the words they hold, each group sought in `surgeries_search_class_idx` (with
  // its doctors); the keys that hold none, by exclusion. Not split when a guide holds one of the
  // words (a guide number's digits), or may.
  ownClasses: (words) => (words.some((word) => guidesHolding(word) !== null) ? null : CLASS_KEYS.classes(words)),
};

/** The guides' trigram index joined to the surgeries, row by row as it yields them. */
const GUIDES_THEN_ROWS = sql`surgery_guides_search cross join ${surgeries} on ${surgeries.id} = surgery_guides_search.rowid`;

/**
 * The guides' trigram index query that finds the guides holding `word`: null when none does, and
 * undefined for a word of one character that one may hold (a trigram has it). A word of two
 * characters is every trigram that starts with it, from the index's vocabulary (each guide is
 * indexed with a space after it, so one at its end has 'xy '). Kept until the surgeries are written.
 */
function guidesHolding(word: string): string | null | undefined {
  return guidesUntilTablesChange(["surgeries"], word, () => {
    const length = [...word].length;
    if (length === 1) {
      return prepared("select 1 from surgery_guides_search_terms where instr(term, ?) limit 1").get(word) ? undefined : null;
    }
    if (length === 2) return pairTermsQuery("surgery_guides_search_terms", word);
    return prepared("select 1 from surgery_guides_search where surgery_guides_search match ? limit 1").get(ftsPhrase(word)) ? ftsPhrase(word) : null;
  });
}
const guidesUntilTablesChange = tablesWriteCache(64);

/** The surgeries search tested row by row (receivables, the task picker, the export). */
export function surgerySearch(q: string): SQL | undefined {
  return rowSearch(SURGERY_SEARCH, q);
}

// ---------------------------------------------------------------------------- list

function surgeryFilters(filters: SurgeryFilters) {
  return and(
    filters.status ? eq(surgeries.status, filters.status) : undefined,
    filters.stage ? eq(surgeries.currentStage, filters.stage) : undefined,
    filters.doctorId ? eq(surgeries.doctorId, filters.doctorId) : undefined,
  );
}

/**
 * The index that holds a filter's surgeries in date order, named to SQLite for its pages' walk
 * (`planWordSearch`): its statistics (nine surgeries in ten 'Concluído', a few hospitals) made it
 * skip-scan the hospitals' or payers' index and sort every row past a page's cursor instead.
 */
function surgeryFilterIndex(filters: SurgeryFilters): string | undefined {
  if (filters.doctorId) return filters.stage ? "surgeries_doctor_stage_date_idx" : "surgeries_doctor_date_idx";
  if (filters.stage) return "surgeries_stage_date_idx";
  if (filters.status) return "surgeries_status_date_idx";
  return undefined;
}

const SURGERY_EXPORT_FIELDS = {
  scheduledDate: surgeries.scheduledDate,
  patientName: patients.name,
  doctorName: doctors.name,
  surgeryType: surgeries.surgeryType,
  status: surgeries.status,
  currentStage: surgeries.currentStage,
  hospital: surgeries.hospital,
  payerName: surgeries.payerName,
  guideNumber: surgeries.guideNumber,
  billedAmountCents: surgeries.billedAmountCents,
};

/** Every surgery the list's search and filters match, in the list's order (not paged: streamed). */
export function surgeryExport({ q, dir }: Omit<ListParams<SurgerySort>, "page">, filters: SurgeryFilters) {
  const direction = dir === "asc" ? asc : desc;
  const query = db
    .select(SURGERY_EXPORT_FIELDS)
    .from(surgeries)
    .innerJoin(patients, eq(patients.id, surgeries.patientId))
    .innerJoin(doctors, eq(doctors.id, surgeries.doctorId))
    .where(and(surgerySearch(q), surgeryFilters(filters)))
    .orderBy(direction(surgeries.scheduledDate), direction(surgeries.id));
  return { fields: SURGERY_EXPORT_FIELDS, query };
}

/** The surgeries list, a page kept until the surgeries, patients or doctors are written (`pageUntilWrite`). */
export function listSurgeries(state: ListParams<SurgerySort>, filters: SurgeryFilters) {
  return pageUntilWrite("surgeries", [state, filters], () => readSurgeries(state, filters), searchedTables(SURGERY_SEARCH));
}

function readSurgeries(state: ListParams<SurgerySort>, filters: SurgeryFilters) {
  // The count needs no join: the search reaches patients and doctors through subqueries.
  const search = planWordSearch(SURGERY_SEARCH, state.q, surgeryFilters(filters), { filterIndex: surgeryFilterIndex(filters) });
  const order: KeysetOrder = { key: SURGERY_SEARCH.order, id: surgeries.id, dir: state.dir };
  const page = keysetPage(state, order, (position, orderBy, limit, offset, ahead, cursor) => {
    const source = wordSearchPage(SURGERY_SEARCH, search, order, { position, cursor, ahead, limit, offset });
    return db
      .select({
        id: surgeries.id,
        cursorKey: surgeries.scheduledDate,
        patientId: surgeries.patientId,
        patientName: patients.name,
        doctorName: doctors.name,
        surgeryType: surgeries.surgeryType,
        scheduledDate: surgeries.scheduledDate,
        status: surgeries.status,
        hospital: surgeries.hospital,
        payerName: surgeries.payerName,
        guideNumber: surgeries.guideNumber,
        currentStage: surgeries.currentStage,
      })
      .from(surgeries)
      .innerJoin(patients, eq(patients.id, surgeries.patientId))
      // '+': the doctor join must not drive the read (see cardQuery in pipeline.server.ts): for
      // 'Concluído', most surgeries, SQLite otherwise sorted them all, 150 ms instead of 0.2.
      .innerJoin(doctors, eq(doctors.id, sql`+${surgeries.doctorId}`))
      .where(source.where)
      .orderBy(...orderBy)
      .limit(limit)
      .offset(source.offset)
      .all();
  }, search.totalCapped ? null : search.total, wordSearchLocate(SURGERY_SEARCH, search, order));
  return { ...page, total: search.total, totalCapped: search.totalCapped, pageSize: PAGE_SIZE };
}

/** One surgery with the names its dialog shows beside the ids. */
export function getSurgery(id: number) {
  return (
    db
      .select({
        id: surgeries.id,
        patientId: surgeries.patientId,
        patientName: patients.name,
        patientCpf: patients.cpf,
        doctorId: surgeries.doctorId,
        doctorName: doctors.name,
        doctorSpecialty: doctors.specialty,
        surgeryType: surgeries.surgeryType,
        scheduledDate: surgeries.scheduledDate,
        status: surgeries.status,
        currentStage: surgeries.currentStage,
        estimatedDurationMin: surgeries.estimatedDurationMin,
        hospital: surgeries.hospital,
        hospitalId: surgeries.hospitalId,
        payerName: surgeries.payerName,
        payerId: surgeries.payerId,
        guideNumber: surgeries.guideNumber,
        billedAmountCents: surgeries.billedAmountCents,
        notes: surgeries.notes,
        receivableStatus: surgeries.receivableStatus,
        denialReason: surgeries.denialReason,
        denialAppeal: surgeries.denialAppeal,
      })
      .from(surgeries)
      .innerJoin(patients, eq(patients.id, surgeries.patientId))
      .innerJoin(doctors, eq(doctors.id, surgeries.doctorId))
      .where(eq(surgeries.id, id))
      .get() ?? null
  );
}

/** The latest stage moves of a surgery, newest first, with who made them. */
export function listStageHistory(surgeryId: number, limit = 20) {
  return db
    .select({
      id: pipelineStages.id,
      stage: pipelineStages.stage,
      fromStage: pipelineStages.fromStage,
      movedBy: pipelineStages.movedBy,
      note: pipelineStages.note,
      movedByName: profiles.name,
      createdAt: pipelineStages.createdAt,
    })
    .from(pipelineStages)
    .leftJoin(profiles, eq(profiles.id, pipelineStages.movedBy))
    .where(eq(pipelineStages.surgeryId, surgeryId))
    .orderBy(desc(pipelineStages.createdAt), desc(pipelineStages.id))
    .limit(limit)
    .all();
}

// ---------------------------------------------------------------------------- Cadastros options

/** Active hospitals by name for the dialog's select, plus `includeId` (the surgery's own, even if inactive). */
export const listHospitalOptions = (includeId?: number | null) => registryOptions(hospitals, { includeId });

/** Active payers by name for the dialog's select, plus `includeId` (the surgery's own, even if inactive). */
export const listPayerOptions = (includeId?: number | null) => registryOptions(payers, { includeId });

/**
 * Every payer, active ones first, then by name: a report's filter, where a period may be about a
 * payer since made inactive.
 */
export const listPayerFilterOptions = () => registryOptions(payers, "every");

/**
 * A Cadastros table's active rows by name, plus `includeId`; or "every" row, active ones first. The
 * active ones alone are what the lists' filters show on every view (the pipeline's, the
 * receivables', the honorários'), and every row what the KPI screens' show: both kept until the
 * next write. Callers share the array: map it, never change it.
 */
function registryOptions(table: typeof hospitals | typeof payers, rows: { includeId?: number | null } | "every") {
  const every = rows === "every";
  const includeId = every ? null : rows.includeId;
  const active = eq(table.active, true);
  const query = () =>
    db
      .select({ id: table.id, name: table.name, active: table.active })
      .from(table)
      .where(every ? undefined : includeId ? or(active, eq(table.id, includeId)) : active)
      .orderBy(...(every ? [desc(table.active)] : []), sql`${table.name} collate nocase`, asc(table.id))
      .limit(REGISTRY_OPTIONS_LIMIT)
      .all();
  if (includeId) return query();
  return cachedUntilWrite(`registry-options:${getTableName(table)}${every ? ":every" : ""}`, query);
}

// ---------------------------------------------------------------------------- writes

interface Current {
  doctorId: number;
  hospitalId: number | null;
  payerId: number | null;
}

/**
 * Checks the ids the form posted and turns the input into column values. A hand-made POST with an
 * unknown id gets a field message, not a foreign-key error. Inactive doctors, hospitals and payers
 * are refused unless the surgery already had them (editing an old record keeps working).
 */
function resolveColumns(conn: DB | Tx, input: SurgeryInput, current?: Current) {
  const patient = conn.select({ id: patients.id }).from(patients).where(eq(patients.id, input.patientId)).get();
  if (!patient) throw new SurgeryError("Paciente não encontrado. Busque e selecione novamente.", "patientId");

  const doctor = conn
    .select({ id: doctors.id, name: doctors.name, active: doctors.active })
    .from(doctors)
    .where(eq(doctors.id, input.doctorId))
    .get();
  if (!doctor) throw new SurgeryError("Médico não encontrado. Busque e selecione novamente.", "doctorId");
  if (!doctor.active && doctor.id !== current?.doctorId) {
    throw new SurgeryError(`${doctor.name} está inativo e não pode receber novas cirurgias.`, "doctorId");
  }

  let hospitalId: number | null = null;
  let hospital: string | null = null;
  if (input.hospitalId === OTHER_CHOICE) {
    hospital = input.hospitalName;
  } else if (input.hospitalId !== null) {
    const row = conn
      .select({ id: hospitals.id, name: hospitals.name, active: hospitals.active })
      .from(hospitals)
      .where(eq(hospitals.id, input.hospitalId))
      .get();
    if (!row) throw new SurgeryError("Hospital não encontrado. Escolha outro da lista.", "hospitalId");
    if (!row.active && row.id !== current?.hospitalId) {
      throw new SurgeryError(`${row.name} está inativo em Cadastros. Escolha outro hospital.`, "hospitalId");
    }
    hospitalId = row.id;
    hospital = row.name;
  }

  let payerId: number | null = null;
  let payerName: string | null = null;
  if (input.payerId === OTHER_CHOICE) {
    payerName = input.payerName;
  } else if (input.payerId !== null) {
    const row = conn
      .select({ id: payers.id, name: payers.name, active: payers.active })
      .from(payers)
      .where(eq(payers.id, input.payerId))
      .get();
    if (!row) throw new SurgeryError("Pagador não encontrado. Escolha outro da lista.", "payerId");
    if (!row.active && row.id !== current?.payerId) {
      throw new SurgeryError(`${row.name} está inativo em Cadastros. Escolha outro pagador.`, "payerId");
    }
    payerId = row.id;
    payerName = row.name;
  }

  return {
    patientId: input.patientId,
    doctorId: input.doctorId,
    surgeryType: input.surgeryType,
    scheduledDate: input.scheduledDate,
    currentStage: input.currentStage,
    estimatedDurationMin: input.estimatedDurationMin,
    hospitalId,
    hospital,
    payerId,
    payerName,
    guideNumber: input.guideNumber,
    billedAmountCents: input.billedAmount,
    notes: input.notes,
  };
}

/**
 * The status to store. The form's status and stage are both editable; they are kept consistent
 * only when the stage changes (a move to Concluído completes the surgery, to Cancelado cancels it,
 * to any other stage re-opens it) and the person did not also pick a status of their own: an
 * explicit status change in the form always wins. On creation 'scheduled' is the form's default,
 * so a new surgery created straight in Concluído or Cancelado gets the matching status.
 */
export function resolveSurgeryStatus(
  input: { surgeryStatus: SurgeryStatus; currentStage: PipelineStage },
  before?: { status: SurgeryStatus; currentStage: PipelineStage },
): SurgeryStatus {
  if (!before) return input.surgeryStatus === "scheduled" ? surgeryStatusForStage(input.currentStage) : input.surgeryStatus;
  const stageChanged = input.currentStage !== before.currentStage;
  const statusChanged = input.surgeryStatus !== before.status;
  return stageChanged && !statusChanged ? surgeryStatusForStage(input.currentStage) : input.surgeryStatus;
}

/**
 * A surgery cannot have been done on a day still to come: 'Concluída' is refused for a date after
 * today in São Paulo (later today is allowed: the scheduled hour is an estimate). The message goes
 * beside the field that asked for it, the status or the stage.
 */
function assertNotConcludedInFuture(input: SurgeryInput, status: SurgeryStatus, now = new Date()) {
  if (status !== "completed") return;
  const day = isoDateInClinic(input.scheduledDate);
  if (!day || day <= todayIsoInClinic(now)) return;
  throw new SurgeryError(
    "Uma cirurgia com data futura não pode ser marcada como concluída.",
    input.surgeryStatus === "completed" ? "surgeryStatus" : "currentStage",
  );
}

function rethrowForeignKey(error: unknown): never {
  // A patient, doctor, hospital or payer deleted between the check and the write.
  if (isForeignKeyViolation(error)) {
    throw new SurgeryError("Um dos cadastros escolhidos (paciente, médico, hospital ou pagador) acabou de ser excluído. Revise e salve novamente.");
  }
  throw error;
}

/** Creates a surgery and logs its initial stage in `pipeline_stages`. Returns the new id. */
export function createSurgery(userId: number, input: SurgeryInput): number {
  try {
    return db.transaction((tx) => {
      const columns = resolveColumns(tx, input);
      const status = resolveSurgeryStatus(input);
      assertNotConcludedInFuture(input, status);
      const ans = ansColumnsFor(columns.currentStage, null, new Date(), clinicHolidaySet(tx));
      const row = tx
        .insert(surgeries)
        .values({ ...columns, ...ans, status, createdBy: userId, ...surgerySearchKeyColumns(columns) })
        .returning({ id: surgeries.id })
        .get();
      tx.insert(pipelineStages).values({ surgeryId: row.id, stage: columns.currentStage, fromStage: null, movedBy: userId }).run();
      instantiateChecklist(tx, userId, row.id, columns.currentStage);
      syncReceivableOnConclusion(tx, row.id, userId, false);
      recordAudit(tx, { userId, action: "create", entity: "surgery", entityId: row.id, changes: { ...columns, status } });
      enqueueCalendarPush(tx, "surgery", row.id);
      return row.id;
    });
  } catch (error) {
    if (error instanceof SurgeryError) throw error;
    rethrowForeignKey(error);
  }
}

/** Updates a surgery; a changed stage is logged in `pipeline_stages` (from → to, by whom). */
export function updateSurgery(userId: number, id: number, input: SurgeryInput) {
  try {
    db.transaction((tx) => {
      const before = tx.select().from(surgeries).where(eq(surgeries.id, id)).get();
      if (!before) throw new SurgeryError("Cirurgia não encontrada.");
      const columns = resolveColumns(tx, input, before);
      const status = resolveSurgeryStatus(input, before);
      assertNotConcludedInFuture(input, status);
      const stageChanged = before.currentStage !== columns.currentStage;
      // Approval without three OPME suppliers needs a justification, which only the board's move asks for.
      if (stageChanged && columns.currentStage === "aprovado" && approvalNeedsJustification(opmeStateForMove(tx, id, before.currentStage))) {
        throw new SurgeryError(`${OPME_JUSTIFICATION_MESSAGE} Mova a cirurgia pelo pipeline.`, "currentStage");
      }
      const ans = stageChanged ? ansColumnsFor(columns.currentStage, before.ansRequestedAt, new Date(), clinicHolidaySet(tx)) : {};
      const after = { ...columns, ...ans, status };
      tx.update(surgeries).set({ ...after, ...surgerySearchKeyColumns(columns) }).where(eq(surgeries.id, id)).run();
      syncReceivableOnConclusion(tx, id, userId, isSurgeryConcluded(before));
      if (stageChanged) {
        tx.insert(pipelineStages)
          .values({ surgeryId: id, stage: columns.currentStage, fromStage: before.currentStage, movedBy: userId })
          .run();
        instantiateChecklist(tx, userId, id, columns.currentStage);
      }
      recordAudit(tx, { userId, action: "update", entity: "surgery", entityId: id, changes: diffChanges(before, after) });
      enqueueCalendarPush(tx, "surgery", id);
    });
  } catch (error) {
    if (error instanceof SurgeryError) throw error;
    rethrowForeignKey(error);
  }
}

function moneyAttached(conn: DB | Tx, id: number) {
  const feeLines = conn.select({ n: count() }).from(surgeryFeeLines).where(eq(surgeryFeeLines.surgeryId, id)).get()!.n;
  const transactions = conn
    .select({ n: count() })
    .from(financialTransactions)
    .where(eq(financialTransactions.surgeryId, id))
    .get()!.n;
  const billed = conn
    .select({ status: surgeries.receivableStatus })
    .from(surgeries)
    .where(and(eq(surgeries.id, id), inArray(surgeries.receivableStatus, [...BILLED_RECEIVABLE_STATUSES])))
    .get();
  return { feeLines, transactions, billedStatus: billed?.status ?? null };
}

const BILLED_LABELS: Record<(typeof BILLED_RECEIVABLE_STATUSES)[number], string> = {
  faturado: "já foi faturada",
  pendente: "já foi faturada e aguarda pagamento",
  pago: "já foi paga",
  glosa: "está em glosa com o pagador",
};

/**
 * Why a surgery cannot be deleted, or null when it can. A surgery with money attached (fee lines,
 * financial transactions, or billed/paid/glosa) is financial history: it is cancelled, not deleted.
 */
export function surgeryDeleteBlock(id: number, conn: DB | Tx = db): string | null {
  const { feeLines, transactions, billedStatus } = moneyAttached(conn, id);
  const reasons: string[] = [];
  if (feeLines > 0) reasons.push(`há ${plural(feeLines, "lançamento de honorários", "lançamentos de honorários")}`);
  if (transactions > 0) reasons.push(`há ${plural(transactions, "lançamento financeiro", "lançamentos financeiros")}`);
  if (billedStatus) reasons.push(`ela ${BILLED_LABELS[billedStatus as keyof typeof BILLED_LABELS]}`);
  if (reasons.length === 0) return null;
  const list = reasons.length === 1 ? reasons[0] : `${reasons.slice(0, -1).join(", ")} e ${reasons[reasons.length - 1]}`;
  return `Não é possível excluir esta cirurgia: ${list}. Para tirá-la da agenda, mova-a para a etapa Cancelado.`;
}

/**
 * Deletes a surgery without money attached, with its stage history (cascade). Tasks that
 * mention it keep existing, unlinked (set null).
 */
export function deleteSurgery(userId: number, id: number) {
  db.transaction((tx) => {
    const surgery = tx.select().from(surgeries).where(eq(surgeries.id, id)).get();
    if (!surgery) throw new SurgeryError("Cirurgia não encontrada.");
    const refusal = surgeryDeleteBlock(id, tx);
    if (refusal) throw new SurgeryError(refusal);
    tx.delete(surgeries).where(eq(surgeries.id, id)).run();
    recordAudit(tx, { userId, action: "delete", entity: "surgery", entityId: id, changes: surgery });
    enqueueCalendarPush(tx, "surgery", id);
  });
}

type FormDefaults = Partial<Record<(typeof SURGERY_FORM_FIELDS)[number], string>>;

/** Picker options, Cadastros selects and default values of the /surgeries create/edit dialog. */
export function surgeryDialogData(url: URL, editing: ReturnType<typeof getSurgery>) {
  const draft = draftFromUrl(url, SURGERY_FORM_FIELDS);
  const patientQ = cleanQueryText(url.searchParams.get("patientQ"));
  const doctorQ = cleanQueryText(url.searchParams.get("doctorQ"));

  const base: FormDefaults = editing
    ? {
        patientId: String(editing.patientId),
        doctorId: String(editing.doctorId),
        surgeryType: editing.surgeryType,
        scheduledDate: toDateTimeLocalValue(editing.scheduledDate),
        surgeryStatus: editing.status,
        currentStage: editing.currentStage,
        estimatedDurationMin: editing.estimatedDurationMin ? String(editing.estimatedDurationMin) : "",
        // A name without a Cadastros link (typed, or its hospital was deleted) comes back as 'Outro'.
        hospitalId: editing.hospitalId ? String(editing.hospitalId) : editing.hospital ? OTHER_CHOICE : "",
        hospitalName: editing.hospitalId ? "" : (editing.hospital ?? ""),
        payerId: editing.payerId ? String(editing.payerId) : editing.payerName ? OTHER_CHOICE : "",
        payerName: editing.payerId ? "" : (editing.payerName ?? ""),
        guideNumber: editing.guideNumber ?? "",
        billedAmount: centsToReaisInput(editing.billedAmountCents),
        notes: editing.notes ?? "",
      }
    : { surgeryStatus: "scheduled", currentStage: INITIAL_PIPELINE_STAGE };
  const defaults: FormDefaults = { ...base, ...draft };

  const patientOptions = patientPickerOptions(patientQ, parseId(defaults.patientId));
  const doctorOptions = doctorPickerOptions(doctorQ, parseId(defaults.doctorId));

  const hospitals = listHospitalOptions(editing?.hospitalId);
  const payers = listPayerOptions(editing?.payerId);
  if (!draft) {
    // A name typed earlier that matches a Cadastros row (same name, ignoring accents and case) is
    // offered as that row, so saving links it instead of keeping loose text.
    linkTypedName(defaults, "hospitalId", "hospitalName", hospitals);
    linkTypedName(defaults, "payerId", "payerName", payers);
  }
  return {
    defaults,
    patientQ,
    doctorQ,
    patientOptions,
    doctorOptions,
    hospitalOptions: hospitals.map(registryOption),
    payerOptions: payers.map(registryOption),
  };
}

function linkTypedName(
  defaults: FormDefaults,
  idField: "hospitalId" | "payerId",
  nameField: "hospitalName" | "payerName",
  rows: { id: number; name: string; active: boolean }[],
) {
  if (defaults[idField] !== OTHER_CHOICE || !defaults[nameField]) return;
  const typed = normalizeSearch(defaults[nameField]);
  const match = rows.find((row) => row.active && normalizeSearch(row.name) === typed);
  if (!match) return;
  defaults[idField] = String(match.id);
  defaults[nameField] = "";
}
