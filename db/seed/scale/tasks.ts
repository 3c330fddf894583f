import type { TaskCategory, TaskPriority } from "../../../app/lib/enums";
import { buildSearchText } from "../../../app/lib/search";
import { DAY, isoDay } from "../time";
import { type DailyWriterEnv, type SeededRows, pickSeeded, spreadOverDays } from "./batch";
import { weekdayOfDay } from "./calendar";
import { WeightedTable } from "./names";

interface TaskKind {
  title: (who: string) => string;
  category: TaskCategory;
  priority: TaskPriority;
  /** Days from the task's creation to its due date (null: no due date). */
  due: [number, number] | null;
  /** Whether it names a patient (and, for a surgery's, the surgery). */
  patient: "surgery" | "patient" | null;
  subtasks: string[];
}

/** The office's tasks over the years, by weight: most follow a surgery through its authorisation, then the office's own. */
const KINDS = new WeightedTable<TaskKind>([
  [{ title: (who) => `Coletar documentos para pré-autorização – ${who}`, category: "surgery", priority: "high", due: [2, 7], patient: "surgery", subtasks: ["Pedido médico assinado", "Laudo de RM recente", "Cópia da carteirinha e documento", "Relatório clínico com CID-10"] }, 24],
  [{ title: (who) => `Cotar OPME – ${who}`, category: "surgery", priority: "high", due: [3, 8], patient: "surgery", subtasks: ["Cotação NeoSpine", "Cotação Vértebra", "Cotação NeuroMed", "Enviar cotações ao convênio"] }, 12],
  [{ title: (who) => `Cobrar parecer do convênio – ${who}`, category: "surgery", priority: "medium", due: [5, 15], patient: "surgery", subtasks: [] }, 14],
  [{ title: (who) => `Confirmar sala e materiais – ${who}`, category: "surgery", priority: "high", due: [1, 5], patient: "surgery", subtasks: ["Reservar sala no centro cirúrgico", "Confirmar microscópio e intensificador de imagem", "Enviar orientações pré-operatórias ao paciente"] }, 12],
  [{ title: (who) => `Recurso de glosa – ${who}`, category: "administrative", priority: "medium", due: [10, 30], patient: "surgery", subtasks: ["Conferir demonstrativo de glosa", "Redigir recurso", "Protocolar no portal do convênio"] }, 5],
  [{ title: (who) => `Reagendar consulta – ${who}`, category: "scheduling", priority: "medium", due: [1, 4], patient: "patient", subtasks: [] }, 14],
  [{ title: (who) => `Ligar para o paciente com resultado de exame – ${who}`, category: "general", priority: "low", due: [2, 10], patient: "patient", subtasks: [] }, 8],
  [{ title: () => "Conferir repasses dos convênios do mês", category: "administrative", priority: "medium", due: [5, 10], patient: null, subtasks: ["Unimed", "Bradesco Saúde", "SulAmérica", "Amil"] }, 3],
  [{ title: () => "Enviar notas fiscais de honorários", category: "administrative", priority: "medium", due: [3, 10], patient: null, subtasks: [] }, 3],
  [{ title: () => "Revisar POP de confirmação de consultas", category: "general", priority: "low", due: null, patient: null, subtasks: [] }, 2],
  [{ title: () => "Organizar escala da recepção", category: "scheduling", priority: "low", due: [7, 20], patient: null, subtasks: [] }, 3],
]);

/**
 * The office's tasks over the practice's years: `total` spread over its working days, each with a
 * due date a few days on (a few none), most following a surgery or a patient, some with their
 * checklist. Those older than a few weeks are done, their checklists ticked; the recent ones are
 * open, a few overdue. Written as the app stores them (its search text); the tasks' indexes, the
 * page's kept version (migration 0046) and the foreign keys see them as any task. Its own random stream.
 */
export function writeTasks(env: DailyWriterEnv & { rows: SeededRows }): number {
  const { conn, batch, random, calendar, firstDay, today, nowMs, adminId, rows, total } = env;
  const insertTask = conn.prepare(
    `INSERT INTO tasks (title, description, priority, status, category, due_date, patient_id, surgery_id, assignee_id, completed_at, created_by, search_text, created_at, updated_at)
     VALUES (?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertSubtask = conn.prepare("INSERT INTO subtasks (task_id, title, completed, position, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)");
  const surgeryOf = conn.prepare("SELECT patient_id FROM surgeries WHERE id = ?").pluck();
  const nameOf = conn.prepare("SELECT name FROM patients WHERE id = ?").pluck();
  const pick = (table: { base: number; count: number }) => pickSeeded(random, table);
  const dayWeight = (d: number) => (weekdayOfDay(d) === 0 || weekdayOfDay(d) === 6 ? 0 : 1);
  return spreadOverDays(firstDay, today, total, dayWeight, (d, n) => {
    for (let i = 0; i < n; i++) {
      const kind = KINDS.at(random.next());
      const created = Math.min(calendar.instant(d, 8 * 60 + random.int(0, 9 * 60)), nowMs - DAY);
      const surgeryId = kind.patient === "surgery" ? pick(rows.surgeries) : null;
      const patientId = surgeryId !== null ? (surgeryOf.get(surgeryId) as number) : kind.patient === "patient" ? pick(rows.patients) : null;
      const names = patientId === null ? [] : (nameOf.get(patientId) as string).split(" ");
      const title = kind.title(patientId === null ? "" : `${names[0]} ${names.at(-1)}`);
      const dueDate = kind.due ? isoDay(created + random.int(kind.due[0], kind.due[1]) * DAY) : null;
      // Done within a few weeks; the last weeks' are open (some past their due date), a few forgotten.
      const age = (nowMs - created) / DAY;
      const open = age < 21 ? random.chance(0.7) : random.chance(0.003);
      const status = open ? (random.chance(0.5) ? "pending" : "in_progress") : "completed";
      const completedAt = open ? null : Math.min(created + random.int(1, 20) * DAY, nowMs - 60_000);
      const updated = completedAt ?? created;
      const info = insertTask.run(
        title,
        kind.priority,
        status,
        kind.category,
        dueDate,
        patientId,
        surgeryId,
        adminId,
        completedAt,
        adminId,
        buildSearchText(title, null),
        created,
        updated,
      );
      kind.subtasks.forEach((item, position) => {
        insertSubtask.run(info.lastInsertRowid, item, open ? Number(random.chance(0.4)) : 1, position, created, updated);
      });
      batch.written(1 + kind.subtasks.length);
    }
  });
}
