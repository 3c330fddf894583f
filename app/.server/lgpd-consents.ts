/**
 * A patient's consents (docs/decisions/0022-lgpd-rights.md): WhatsApp's state is the messaging's
 * own (`patients.whatsapp_opt_in`, logged in `whatsapp_consents`); the other purposes are logged
 * in `patient_consents`. Every decision is a new row; the latest one of a purpose is its state.
 */
import { eq, sql } from "drizzle-orm";
import { patientConsents, patients, whatsappConsents } from "~db/schema";
import {
  CONSENT_HISTORY_LIMIT,
  CONSENT_PURPOSES,
  type ConsentPurpose,
  type ConsentSource,
  OTHER_CONSENT_PURPOSES,
} from "~/lib/consents";
import { setConsent } from "~/models/message.server";
import type { ConsentInput } from "~/validation/consent";
import { recordAudit } from "./audit";
import { db, prepared, preparedQuery } from "./db";
import { DomainError } from "./domain-error";

export interface ConsentEvent {
  granted: boolean;
  source: ConsentSource;
  at: Date;
  recordedBy: string | null;
}

export interface ConsentState {
  purpose: ConsentPurpose;
  /** null: never recorded. */
  current: ConsentEvent | null;
}


/** The decisions of one purpose, newest first, at most `limit`; read through the (patient, purpose) indexes. */
export function consentHistory(patientId: number, purpose: ConsentPurpose, limit = CONSENT_HISTORY_LIMIT): ConsentEvent[] {
  if (purpose === "whatsapp") return prepared(WHATSAPP_HISTORY_SQL).all(patientId, limit).map(toEvent);
  return prepared(PURPOSE_HISTORY_SQL).all(patientId, purpose, limit).map(toEvent);
}

const WHATSAPP_HISTORY_SQL = `select c.opted_in as granted, c.source, c.created_at as at, p.name as recordedBy
  from whatsapp_consents c left join profiles p on p.id = c.recorded_by
  where c.patient_id = ? order by c.created_at desc, c.id desc limit ?`;

const PURPOSE_HISTORY_SQL = `select c.granted, c.source, c.created_at as at, p.name as recordedBy
  from patient_consents c left join profiles p on p.id = c.recorded_by
  where c.patient_id = ? and c.purpose = ? order by c.id desc limit ?`;

function toEvent(row: unknown): ConsentEvent {
  const r = row as { granted: number; source: ConsentSource; at: number; recordedBy: string | null };
  return { granted: r.granted === 1, source: r.source, at: new Date(r.at), recordedBy: r.recordedBy };
}

const optInQuery = preparedQuery(() =>
  db
    .select({ optIn: patients.whatsappOptIn, at: patients.whatsappOptInAt })
    .from(patients)
    .where(eq(patients.id, sql.placeholder("patientId")))
    .prepare(),
);

/** Each purpose with its latest decision. WhatsApp's state is the patient's opt-in, whatever the log says. */
export function patientConsentStates(patientId: number): ConsentState[] {
  const optIn = optInQuery().get({ patientId });
  return CONSENT_PURPOSES.map((purpose) => {
    const [latest] = consentHistory(patientId, purpose, 1);
    if (purpose !== "whatsapp") return { purpose, current: latest ?? null };
    if (!optIn) return { purpose, current: null };
    if (!latest && !optIn.optIn) return { purpose, current: null };
    // The opt-in is the truth; the log names when and how (a row missing from the log still shows the state).
    const current: ConsentEvent =
      latest && latest.granted === optIn.optIn
        ? latest
        : { granted: optIn.optIn, source: "cadastro", at: optIn.at ?? latest?.at ?? new Date(0), recordedBy: null };
    return { purpose, current };
  });
}

/**
 * Records a decision: WhatsApp through the messaging's own opt-in (so sending reads one truth),
 * the others as a new `patient_consents` row. Audited on the patient (the purpose and the decision,
 * no personal data) as `patient_consent`. One transaction.
 */
export function recordConsent(userId: number, patientId: number, input: ConsentInput) {
  const granted = input.granted === "sim";
  db.transaction((tx) => {
    const patient = tx.select({ id: patients.id, optIn: patients.whatsappOptIn }).from(patients).where(eq(patients.id, patientId)).get();
    if (!patient) throw new DomainError("Paciente não encontrado.");
    if (input.purpose === "whatsapp") {
      if (patient.optIn !== granted) {
        // setConsent changes the opt-in (its trigger logs the row) and names the source.
        setConsent(tx, patientId, granted, input.source, userId);
      } else {
        // The same decision again (a signed form confirming a verbal one): a row of its own.
        tx.insert(whatsappConsents).values({ patientId, optedIn: granted, source: input.source, recordedBy: userId }).run();
      }
    } else {
      const purpose = input.purpose as (typeof OTHER_CONSENT_PURPOSES)[number];
      tx.insert(patientConsents).values({ patientId, purpose, granted, source: input.source, recordedBy: userId }).run();
    }
    recordAudit(tx, {
      userId,
      action: "update",
      // Its own entity (id: the patient), so the entry keeps the purpose and decision, which a
      // 'patient' entry (field names only, ADR 0011) would not.
      entity: "patient_consent",
      entityId: patientId,
      changes: { consent: [input.purpose, granted ? "autorizado" : "revogado", input.source] },
    });
  });
}

/** Every decision of every purpose, oldest first (the export; a patient has a handful). */
export function allConsents(patientId: number) {
  const other = db
    .select({ purpose: patientConsents.purpose, granted: patientConsents.granted, source: patientConsents.source, at: patientConsents.createdAt })
    .from(patientConsents)
    .where(eq(patientConsents.patientId, patientId))
    .orderBy(patientConsents.id)
    .all();
  const whatsapp = db
    .select({ granted: whatsappConsents.optedIn, source: whatsappConsents.source, at: whatsappConsents.createdAt })
    .from(whatsappConsents)
    .where(eq(whatsappConsents.patientId, patientId))
    .orderBy(whatsappConsents.createdAt, whatsappConsents.id)
    .all()
    .map((row) => ({ purpose: "whatsapp" as const, ...row }));
  return [...whatsapp, ...other];
}
