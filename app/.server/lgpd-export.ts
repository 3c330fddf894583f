/**
 * The patient's data export (LGPD art. 18, II and V; docs/decisions/0022-lgpd-rights.md): a ZIP
 * streamed with yazl holding `paciente.json` (every row about the patient), `resumo.html` (the same,
 * readable, in Portuguese) and `documentos/` (the stored files, each checked against its size and
 * SHA-256 before it is added; a missing or altered one is listed, never sent wrongly).
 * Rows are read per patient through their (patient_id …) / (surgery_id …) indexes.
 */
import fs from "node:fs";
import { Readable } from "node:stream";
import yazl from "yazl";
import { CONSENT_PURPOSE_LABELS, CONSENT_SOURCE_LABELS, type ConsentPurpose, type ConsentSource } from "~/lib/consents";
import { formatDateTime, formatIsoDate } from "~/lib/dates";
import { formatBRL } from "~/lib/money";
import { clientAddress, recordAudit } from "./audit";
import { db, sqlite } from "./db";
import { verifyStored } from "./uploads";

type Row = Record<string, unknown>;

/** Columns that are the app's bookkeeping, not the patient's data. */
const INTERNAL = new Set(["search_text", "search_class", "storage_name", "due_sort"]);

function clean(rows: unknown[]): Row[] {
  return (rows as Row[]).map((row) => Object.fromEntries(Object.entries(row).filter(([key]) => !INTERNAL.has(key))));
}

/** The queries of the export, by section: each reads one patient's rows through an index. */
export const EXPORT_QUERIES = {
  paciente: "select * from patients where id = :id",
  encaminhamento:
    "select r.patient_id, f.name as referrer_name, f.specialty as referrer_specialty, r.created_at from patient_referrals r join referrers f on f.id = r.referrer_id where r.patient_id = :id",
  consentimentos_whatsapp: "select opted_in as granted, source, created_at from whatsapp_consents where patient_id = :id order by created_at, id",
  consentimentos: "select purpose, granted, source, created_at from patient_consents where patient_id = :id order by id",
  consultas:
    "select a.*, d.name as doctor_name from appointments a left join doctors d on d.id = a.doctor_id where a.patient_id = :id order by a.start_time, a.id",
  cirurgias:
    "select s.*, d.name as doctor_name from surgeries s left join doctors d on d.id = s.doctor_id where s.patient_id = :id order by s.scheduled_date, s.id",
  etapas_cirurgia:
    "select p.* from surgeries s join pipeline_stages p on p.surgery_id = s.id where s.patient_id = :id order by p.surgery_id, p.created_at, p.id",
  honorarios_cirurgia:
    "select l.* from surgeries s join surgery_fee_lines l on l.surgery_id = s.id where s.patient_id = :id order by l.surgery_id, l.id",
  lancamentos_financeiros:
    "select t.* from surgeries s join financial_transactions t on t.surgery_id = s.id where s.patient_id = :id order by t.transaction_date, t.id",
  mensagens: "select * from messages where patient_id = :id order by created_at, id",
  tarefas: "select * from tasks where patient_id = :id order by created_at, id",
  subtarefas: "select st.* from tasks t join subtasks st on st.task_id = t.id where t.patient_id = :id order by st.task_id, st.position, st.id",
  pedidos: "select * from orders where patient_id = :id order by created_at, id",
  documentos: "select * from documents where patient_id = :id order by created_at, id",
} as const;

export type ExportSection = keyof typeof EXPORT_QUERIES;

/** Every row about the patient, by section; null when the patient does not exist. */
export function patientExportData(patientId: number): Record<ExportSection, Row[]> | null {
  const read = () => {
    const data = {} as Record<ExportSection, Row[]>;
    for (const [section, query] of Object.entries(EXPORT_QUERIES)) data[section as ExportSection] = clean(sqlite.prepare(query).all({ id: patientId }));
    return data;
  };
  // One read transaction: the sections are a consistent picture of one moment.
  const data = sqlite.transaction(read)();
  return data.paciente.length ? data : null;
}

/** The name a stored document gets inside the ZIP: its id and its uploaded name, made safe. */
export function zipDocumentName(doc: Row): string {
  const base = String(doc.original_name ?? "documento")
    .normalize("NFC")
    .replace(/[\\/:*?"<>|\u0000-\u001f]/g, "_")
    .replace(/^\.+/, "_")
    .slice(0, 120);
  return `documentos/${doc.id}-${base || "documento"}`;
}

const escapeHtml = (value: unknown) =>
  String(value ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

const when = (ms: unknown) => (typeof ms === "number" ? formatDateTime(new Date(ms)) : "-");
const money = (cents: unknown) => (typeof cents === "number" ? formatBRL(cents) : "-");

function table(title: string, rows: Row[], columns: [string, (row: Row) => unknown][]): string {
  const head = columns.map(([label]) => `<th>${escapeHtml(label)}</th>`).join("");
  const body = rows.length
    ? rows.map((row) => `<tr>${columns.map(([, value]) => `<td>${escapeHtml(value(row))}</td>`).join("")}</tr>`).join("\n")
    : `<tr><td colspan="${columns.length}">Nenhum registro.</td></tr>`;
  return `<h2>${escapeHtml(title)} (${rows.length})</h2>\n<table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

/** The readable summary: self-contained HTML, no script, no external resource. */
export function exportSummaryHtml(data: Record<ExportSection, Row[]>, files: Map<number, string>, generatedAt: Date, clinicName: string): string {
  const p = data.paciente[0];
  const facts: [string, unknown][] = [
    ["Nome", p.name],
    ["CPF", p.cpf],
    ["Data de nascimento", typeof p.date_of_birth === "string" ? formatIsoDate(p.date_of_birth) : null],
    ["Telefone", p.phone],
    ["E-mail", p.email],
    ["Endereço", p.address],
    ["Convênio", p.insurance],
    ["Número da carteirinha", p.insurance_card_number],
    ["Encaminhado por", data.encaminhamento[0]?.referrer_name],
    ["Histórico médico", p.medical_history],
    ["Cadastrado em", when(p.created_at)],
  ];
  const consents = [
    ...data.consentimentos_whatsapp.map((c) => ({ ...c, purpose: "whatsapp" })),
    ...data.consentimentos,
  ];
  return `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><title>Dados de ${escapeHtml(p.name)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;color:#111}table{border-collapse:collapse;width:100%;margin-bottom:1.5rem;font-size:.9rem}th,td{border:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top}th{background:#f3f3f3}dt{font-weight:600}dd{margin:0 0 .5rem 0;white-space:pre-line}</style>
</head><body>
<h1>Dados pessoais de ${escapeHtml(p.name)}</h1>
<p>Cópia dos dados mantidos por ${escapeHtml(clinicName)}, gerada em ${escapeHtml(formatDateTime(generatedAt))} (LGPD, art. 18). Os dados completos, em formato legível por máquina, estão em <code>paciente.json</code>; os arquivos dos documentos, na pasta <code>documentos/</code>.</p>
<h2>Identificação e contato</h2>
<dl>${facts.map(([label, value]) => `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value ?? "-") || "-"}</dd>`).join("")}</dl>
${table("Consentimentos", consents, [
  ["Finalidade", (c) => CONSENT_PURPOSE_LABELS[c.purpose as ConsentPurpose] ?? c.purpose],
  ["Decisão", (c) => (c.granted ? "Autorizado" : "Revogado")],
  ["Origem", (c) => CONSENT_SOURCE_LABELS[c.source as ConsentSource] ?? c.source],
  ["Data", (c) => when(c.created_at)],
])}
${table("Consultas", data.consultas, [
  ["Data", (a) => when(a.start_time)],
  ["Tipo", (a) => a.type],
  ["Médico", (a) => a.doctor_name],
  ["Situação", (a) => a.status],
  ["Local", (a) => a.location],
  ["Observações", (a) => a.notes],
])}
${table("Cirurgias", data.cirurgias, [
  ["Data", (s) => when(s.scheduled_date)],
  ["Procedimento", (s) => s.surgery_type],
  ["Médico", (s) => s.doctor_name],
  ["Hospital", (s) => s.hospital],
  ["Etapa", (s) => s.current_stage],
  ["Valor faturado", (s) => money(s.billed_amount_cents)],
  ["Guia", (s) => s.guide_number],
])}
${table("Lançamentos financeiros das cirurgias", data.lancamentos_financeiros, [
  ["Data", (t) => t.transaction_date],
  ["Tipo", (t) => t.type],
  ["Descrição", (t) => t.description],
  ["Valor", (t) => money(t.amount_cents)],
])}
${table("Mensagens", data.mensagens, [
  ["Data", (m) => when(m.created_at)],
  ["Direção", (m) => (m.direction === "inbound" ? "Recebida" : "Enviada")],
  ["Texto", (m) => m.body],
  ["Situação", (m) => m.status],
])}
${table("Tarefas", data.tarefas, [
  ["Criada em", (t) => when(t.created_at)],
  ["Título", (t) => t.title],
  ["Descrição", (t) => t.description],
  ["Situação", (t) => t.status],
])}
${table("Pedidos", data.pedidos, [
  ["Criado em", (o) => when(o.created_at)],
  ["Tipo", (o) => o.order_type],
  ["Situação", (o) => o.status],
])}
${table("Documentos", data.documentos, [
  ["Enviado em", (d) => when(d.created_at)],
  ["Nome", (d) => d.original_name],
  ["Categoria", (d) => d.category],
  ["Observação", (d) => d.note],
  ["Arquivo", (d) => files.get(Number(d.id)) ?? "-"],
])}
</body></html>
`;
}

/**
 * Streams the export as a ZIP Response and records it in the audit trail (with what it held).
 * The documents go first, each verified just before it is added; the JSON and the summary, which
 * say which files made it, are added last (order inside a ZIP does not matter to readers).
 */
export function patientExportResponse(request: Request, user: { id: number }, patientId: number, clinicName: string, now = new Date()): Response | null {
  const data = patientExportData(patientId);
  if (!data) return null;
  recordAudit(db, {
    userId: user.id,
    action: "export",
    entity: "patient",
    entityId: patientId,
    changes: { lgpd: true, counts: Object.fromEntries(Object.entries(data).map(([k, rows]) => [k, rows.length])) },
    ip: clientAddress(request),
  });
  const zip = new yazl.ZipFile();
  const files = new Map<number, string>();
  // Where each file is stored (not part of the export itself).
  const stored = new Map(
    (sqlite.prepare("select id, storage_name as name from documents where patient_id = ?").all(patientId) as { id: number; name: string }[]).map((d) => [d.id, d.name]),
  );
  const build = async () => {
    for (const doc of data.documentos) {
      const storageName = stored.get(Number(doc.id));
      const check = storageName
        ? await verifyStored(storageName, { sizeBytes: Number(doc.size_bytes), sha256: String(doc.sha256) })
        : ({ ok: false, reason: "missing" } as const);
      if (check.ok) {
        const name = zipDocumentName(doc);
        zip.addReadStreamLazy(name, { mtime: new Date(Number(doc.created_at)) }, (cb) => cb(null, fs.createReadStream(check.path)));
        files.set(Number(doc.id), name);
      } else {
        files.set(Number(doc.id), check.reason === "missing" ? "arquivo ausente no servidor" : "arquivo alterado no servidor (não incluído)");
      }
    }
    const documents = data.documentos.map((doc) => ({ ...doc, arquivo_no_zip: files.get(Number(doc.id)) }));
    const json = { gerado_em: now.toISOString(), clinica: clinicName, ...data, documentos: documents };
    zip.addBuffer(Buffer.from(JSON.stringify(json, null, 2), "utf8"), "paciente.json", { mtime: now });
    zip.addBuffer(Buffer.from(exportSummaryHtml(data, files, now, clinicName), "utf8"), "resumo.html", { mtime: now });
    zip.end();
  };
  build().catch((error: unknown) => zip.outputStream.emit("error", error));
  return new Response(Readable.toWeb(zip.outputStream as Readable) as ReadableStream<Uint8Array>, {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="paciente-${patientId}-dados.zip"`,
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-store",
    },
  });
}
