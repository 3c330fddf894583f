import type { TaskCategory, TaskPriority, TaskStatus } from "../../app/lib/enums";
import { buildSearchText } from "../../app/lib/search";
import * as schema from "../schema";
import type { Accounts } from "./accounts";
import { insertRows, type SeedContext } from "./context";
import type { PatientPool } from "./patients";
import type { SurgeryBook, SurgeryDraft } from "./surgeries";
import { addDays, DAY, formatBrDate, HOUR } from "./time";

interface TaskDraft {
  title: string;
  description: string | null;
  category: TaskCategory;
  priority: TaskPriority;
  status: TaskStatus;
  dueOffset: number | null;
  patientIndex?: number;
  surgery?: SurgeryDraft;
  assigneeId: number;
  subtasks: string[];
}

/** Tasks with checklists: the follow-ups the surgeries in the pipeline need, plus the office's own. */
export function seedTasks(
  { tx, random, nowMs, today }: SeedContext,
  { adminId, staffId, doctorUserId, officeUsers }: Accounts,
  { patients, patientIds }: PatientPool,
  { surgeryDrafts, receivable, surgeryId }: SurgeryBook,
) {
  const taskDrafts: TaskDraft[] = [];
  const short = (i: number) => {
    const parts = patients[i].name.split(" ");
    return `${parts[0]} ${parts[parts.length - 1]}`;
  };
  for (const s of surgeryDrafts) {
    const who = short(s.patientIndex);
    if (s.stage === "aguarda_docs")
      taskDrafts.push({
        title: `Coletar documentos para pré-autorização – ${who}`,
        description: `${s.type.name} (${s.payer}). Falta documentação para enviar ao convênio.`,
        category: "surgery",
        priority: "high",
        status: random.pick(["pending", "in_progress"] as const),
        dueOffset: random.int(-2, 5),
        patientIndex: s.patientIndex,
        surgery: s,
        assigneeId: staffId,
        subtasks: ["Pedido médico assinado", "Laudo de RM recente", "Cópia da carteirinha e documento", "Relatório clínico com CID-10"],
      });
    if (s.stage === "opme_cotacao")
      taskDrafts.push({
        title: `Cotar OPME – ${s.type.name}`,
        description: `Paciente ${who}. O convênio exige três cotações de fornecedores diferentes.`,
        category: "surgery",
        priority: "high",
        status: "in_progress",
        dueOffset: random.int(1, 6),
        patientIndex: s.patientIndex,
        surgery: s,
        assigneeId: staffId,
        subtasks: ["Cotação NeoSpine", "Cotação Vértebra", "Cotação NeuroMed", "Enviar cotações ao convênio"],
      });
    if (s.stage === "aguardando_parecer")
      taskDrafts.push({
        title: `Cobrar parecer do convênio – ${s.payer} (${who})`,
        description: s.path.includes("enviado_pre_aut") ? "Guia enviada; prazo da ANS para resposta: até 21 dias úteis." : null,
        category: "administrative",
        priority: "medium",
        status: "pending",
        dueOffset: random.int(-4, 4),
        patientIndex: s.patientIndex,
        surgery: s,
        assigneeId: staffId,
        subtasks: [],
      });
    if (s.stage === "agendado")
      taskDrafts.push({
        title: `Confirmar sala e materiais – ${who} (${formatBrDate(s.start)})`,
        description: `${s.type.name} no ${s.hospital.name}.`,
        category: "scheduling",
        priority: "medium",
        status: random.pick(["pending", "in_progress"] as const),
        dueOffset: Math.max(0, Math.round((s.start - nowMs) / DAY) - 2),
        patientIndex: s.patientIndex,
        surgery: s,
        assigneeId: staffId,
        subtasks: ["Reservar sala no centro cirúrgico", "Confirmar microscópio e intensificador de imagem", "Enviar orientações pré-operatórias ao paciente"],
      });
    if (s.stage === "negado")
      taskDrafts.push({
        title: `Preparar recurso da negativa – ${who}`,
        description: "Reunir evolução clínica e falha do tratamento conservador para o recurso.",
        category: "surgery",
        priority: "high",
        status: "pending",
        dueOffset: random.int(-1, 3),
        patientIndex: s.patientIndex,
        surgery: s,
        assigneeId: doctorUserId,
        subtasks: ["Relatório médico detalhado", "Anexar laudos e evolução da fisioterapia"],
      });
    const billing = receivable.get(s);
    if (billing === "glosa" || billing === "pendente")
      taskDrafts.push({
        title: billing === "glosa" ? `Recurso de glosa – ${s.payer}` : `Cobrar pagamento em atraso – ${s.payer}`,
        description: `${s.type.name}, paciente ${who}.`,
        category: "administrative",
        priority: billing === "glosa" ? "high" : "medium",
        status: "pending",
        dueOffset: random.int(-6, 2),
        patientIndex: s.patientIndex,
        surgery: s,
        assigneeId: adminId,
        subtasks: billing === "glosa" ? ["Conferir demonstrativo de glosa", "Redigir recurso", "Protocolar no portal do convênio"] : [],
      });
  }
  const general: Array<Omit<TaskDraft, "patientIndex" | "surgery">> = [
    { title: "Renovar alvará da Vigilância Sanitária", description: "Vence no fim do mês; agendar vistoria.", category: "administrative", priority: "high", status: "pending", dueOffset: 18, assigneeId: adminId, subtasks: ["Separar licença atual e plantas", "Pagar taxa (DAMSP)", "Agendar vistoria"] },
    { title: "Conferir repasses dos convênios do mês", description: null, category: "administrative", priority: "medium", status: "in_progress", dueOffset: 3, assigneeId: adminId, subtasks: ["Unimed", "Bradesco Saúde", "SulAmérica", "Amil"] },
    { title: "Atualizar tabela de preços particulares", description: "Reajuste anual pelo IPCA.", category: "administrative", priority: "low", status: "pending", dueOffset: 35, assigneeId: adminId, subtasks: [] },
    { title: "Reagendar pacientes da Dra. Helena (congresso)", description: "Congresso Brasileiro de Neurocirurgia: sem agenda na semana.", category: "scheduling", priority: "high", status: "in_progress", dueOffset: 2, assigneeId: staffId, subtasks: ["Listar pacientes afetados", "Ligar e oferecer novos horários", "Atualizar agenda"] },
    { title: "Organizar escala de férias da recepção", description: null, category: "scheduling", priority: "medium", status: "pending", dueOffset: 12, assigneeId: staffId, subtasks: [] },
    { title: "Treinamento da equipe no Sinapse", description: "Cadastro de pacientes, agenda e pipeline cirúrgico.", category: "general", priority: "medium", status: "completed", dueOffset: -10, assigneeId: adminId, subtasks: ["Módulo de pacientes", "Agenda e confirmações", "Pipeline cirúrgico"] },
    { title: "Comprar materiais de escritório", description: null, category: "general", priority: "low", status: "completed", dueOffset: -5, assigneeId: staffId, subtasks: ["Papel A4", "Toner da impressora"] },
    { title: "Revisar POP de confirmação de consultas", description: "Incluir o envio automático pelo WhatsApp.", category: "general", priority: "medium", status: "pending", dueOffset: -3, assigneeId: adminId, subtasks: [] },
    { title: "Responder avaliações dos pacientes no Google", description: null, category: "general", priority: "low", status: "pending", dueOffset: null, assigneeId: staffId, subtasks: [] },
    { title: "Enviar notas fiscais de honorários à Unimed", description: null, category: "administrative", priority: "medium", status: "completed", dueOffset: -8, assigneeId: adminId, subtasks: [] },
  ];
  taskDrafts.push(...general);

  const taskRows = taskDrafts.map((t) => {
    const createdAt = new Date(nowMs - random.int(2, 20) * DAY - random.int(0, 8) * HOUR);
    const completedAt = t.status === "completed" ? new Date(Math.min(nowMs - HOUR, createdAt.getTime() + random.int(1, 6) * DAY)) : null;
    return {
      title: t.title,
      description: t.description,
      priority: t.priority,
      status: t.status,
      category: t.category,
      dueDate: t.dueOffset === null ? null : addDays(today, t.dueOffset),
      patientId: t.patientIndex === undefined ? null : patientIds[t.patientIndex],
      surgeryId: t.surgery ? surgeryId.get(t.surgery)! : null,
      assigneeId: t.assigneeId,
      completedAt,
      createdBy: random.pick(officeUsers),
      searchText: buildSearchText(t.title, t.description),
      createdAt,
      updatedAt: completedAt ?? createdAt,
    } satisfies typeof schema.tasks.$inferInsert;
  });
  const taskIds = insertRows(tx, schema.tasks, taskRows);
  const subtaskRows: Array<typeof schema.subtasks.$inferInsert> = [];
  taskDrafts.forEach((t, i) => {
    const done = t.status === "completed" ? t.subtasks.length : t.status === "in_progress" ? random.int(1, Math.max(1, t.subtasks.length - 1)) : random.int(0, 1);
    t.subtasks.forEach((title, position) => subtaskRows.push({ taskId: taskIds[i], title, position, completed: position < done }));
  });
  insertRows(tx, schema.subtasks, subtaskRows);
}
