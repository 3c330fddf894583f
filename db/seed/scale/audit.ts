import { type AuditAction, auditableChanges } from "../../../app/.server/audit";
import { appendEntry } from "../../../app/.server/audit-chain";
import { MINUTE } from "../time";
import { type DailyWriterEnv, type SeededRows, pickSeeded, spreadOverDays } from "./batch";
import { weekdayOfDay } from "./calendar";
import { WeightedTable } from "./names";

type Kind = "record" | "list" | "search" | "bookAppointment" | "moveAppointment" | "registerPatient" | "editPatient" | "moveSurgery" | "login" | "logout" | "loginFailed" | "export";

/**
 * What a working day's entries are (ADR 0011: every view of patient data, every write, every
 * sign-in): mostly views of records and of the patient list, then the appointments booked and
 * moved along, patients registered and corrected, surgeries moved through the pipeline, sign-ins
 * and sign-outs, a few failed sign-ins and exports.
 */
const KINDS = new WeightedTable<Kind>([
  ["record", 30],
  ["list", 14],
  ["search", 6],
  ["bookAppointment", 14],
  ["moveAppointment", 17],
  ["registerPatient", 3],
  ["editPatient", 4],
  ["moveSurgery", 4],
  ["login", 4],
  ["logout", 3],
  ["loginFailed", 0.6],
  ["export", 0.4],
]);

const STATUS_MOVES: ReadonlyArray<readonly [string, string]> = [
  ["scheduled", "confirmed"],
  ["confirmed", "completed"],
  ["scheduled", "cancelled"],
  ["confirmed", "cancelled"],
];
const SURGERY_STAGES = ["aguarda_docs", "docs_recebidos", "solicitado", "em_analise", "aprovado", "agendado", "realizado", "faturado", "concluido"];
const PATIENT_FIELDS = [["phone"], ["email"], ["address", "city"], ["insuranceCardNumber"], ["phone", "email"]];
const SEARCHES = ["silva", "maria", "santos", "oliveira", "jose", "ana p", "souza", "lima", "pereira", "costa"];

/**
 * The practice's audit trail over its 20 years: `total` entries spread over its working days (a
 * Saturday is a short day, a Sunday nearly empty), each day's in the order of its hours, written
 * through the chain's own `appendEntry` so every entry is linked and hashed as the app's are, with
 * `changes` as the app keeps them (`auditableChanges`). Its own random stream: the other tables are
 * the same with or without it.
 */
export function writeAuditTrail(options: DailyWriterEnv & { rows: SeededRows }): number {
  const { conn, batch, random, calendar, firstDay, today, nowMs, adminId, rows, total } = options;
  const dayWeight = (d: number) => [0.05, 1, 1, 1, 1, 1, 0.3][weekdayOfDay(d)];
  const pick = (table: { base: number; count: number }) => pickSeeded(random, table);
  const address = () => `10.0.${random.int(0, 3)}.${random.int(10, 250)}`;
  return spreadOverDays(firstDay, today, total, dayWeight, (d, n) => {
    // The day's entries between 07:00 and 20:00, in time order (never past the build's clock).
    const times = Array.from({ length: n }, () => Math.min(calendar.instant(d, 7 * 60) + random.next() * 13 * 60 * MINUTE, nowMs - MINUTE)).sort((a, b) => a - b);
    for (const now of times) {
      const kind = KINDS.at(random.next());
      let action: AuditAction = "view";
      let entity = "patient";
      let entityId: number | null = null;
      let changes: unknown = null;
      let userId: number | null = adminId;
      switch (kind) {
        case "record":
          entityId = pick(rows.patients);
          break;
        case "list":
        case "search":
          changes = { ids: Array.from({ length: 25 }, () => pick(rows.patients)), ...(kind === "search" ? { q: random.pick(SEARCHES) } : {}) };
          break;
        case "bookAppointment":
          [action, entity, entityId] = ["create", "appointment", pick(rows.appointments)];
          changes = { patientId: pick(rows.patients), status: "scheduled", type: "Retorno", notes: "…" };
          break;
        case "moveAppointment": {
          const [from, to] = random.pick(STATUS_MOVES);
          [action, entity, entityId, changes] = ["update", "appointment", pick(rows.appointments), { status: [from, to] }];
          break;
        }
        case "registerPatient":
          [action, entityId, changes] = ["create", pick(rows.patients), { name: "…", phone: "…", dateOfBirth: "…" }];
          break;
        case "editPatient":
          [action, entityId] = ["update", pick(rows.patients)];
          changes = Object.fromEntries(random.pick(PATIENT_FIELDS).map((field) => [field, ["…", "…"]]));
          break;
        case "moveSurgery": {
          const stage = random.int(0, SURGERY_STAGES.length - 2);
          [action, entity, entityId] = ["update", "surgery", pick(rows.surgeries)];
          changes = { currentStage: [SURGERY_STAGES[stage], SURGERY_STAGES[stage + 1]] };
          break;
        }
        case "login":
        case "logout":
          [action, entity, entityId] = [kind, "session", adminId];
          break;
        case "loginFailed":
          [action, entity, userId, changes] = ["login_failed", "session", null, { email: "recepcao@clinica.local", reason: "Senha incorreta" }];
          break;
        case "export":
          [action, entity, changes] = ["export", "patients", { format: "csv" }];
          break;
      }
      const kept = auditableChanges({ action, entity, changes });
      appendEntry(conn, {
        userId,
        action,
        entity,
        entityId: entityId === null ? null : String(entityId),
        changes: kept === null ? null : JSON.stringify(kept),
        ip: address(),
        now,
      });
      batch.written(1);
    }
  });
}
