import { CalendarPlus, Download, FileText, History, ListTodo, MessageSquare, Pencil, Scissors, Stethoscope, Upload, UserX } from "~/components/icons";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { EmptyState } from "~/components/empty-state";
import { RouteErrorBoundary } from "~/components/route-error";
import { Badge } from "~/components/ui/badge";
import { ButtonLink } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { recordView } from "~/.server/audit";
import { assertCan, requirePermission } from "~/.server/auth";
import { dispatchIntent } from "~/.server/intent-action";
import { consentHistory, patientConsentStates } from "~/.server/lgpd-consents";
import { anonymisedAt } from "~/.server/lgpd-anonymise";
import { patientRecordIntents } from "~/.server/lgpd-intents";
import { AnonymiseDialog } from "~/components/patient-anonymise-dialog";
import { ConsentDialog } from "~/components/patient-consent-dialog";
import { ConsentsCard } from "~/components/patient-consents";
import { CONSENT_HISTORY_LIMIT, isConsentPurpose } from "~/lib/consents";
import { notFound } from "~/.server/responses";
import { formatDate, formatDateTime, formatIsoDate, todayIsoInClinic } from "~/lib/dates";
import { formatCpf, formatPhone } from "~/lib/documents";
import {
  APPOINTMENT_STATUS_LABELS,
  DOCUMENT_CATEGORY_LABELS,
  MESSAGE_STATUS_LABELS,
  TASK_STATUS_LABELS,
  labelFor,
} from "~/lib/enums";
import { parseId } from "~/lib/list-params";
import { can } from "~/lib/permissions";
import { PIPELINE_STAGE_LABELS } from "~/lib/pipeline";
import {
  type TimelineItem,
  type TimelineKind,
  getPatientRecord,
  parseTimelineCursor,
  patientTimeline,
  timelineCounts,
} from "~/models/patient-record.server";
import { recentPatientDocuments } from "~/models/document.server";
import { GoogleDriveSendButton } from "~/components/google-drive-send";
import { connectionStatus } from "~/.server/google";
import type { Route } from "./+types/patient";

export const handle = { title: "Paciente", subtitle: "Prontuário: cadastro, histórico e documentos" };
export const meta: Route.MetaFunction = ({ data }) => [{ title: `${data?.patient.name ?? "Paciente"} · Sinapse` }];

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requirePermission(request, "patients", "view");
  const id = parseId(params.id) ?? notFound("Paciente não encontrado.");
  const patient = getPatientRecord(id) ?? notFound("Paciente não encontrado.");
  const url = new URL(request.url);
  const rawCursor = url.searchParams.get("ate");
  const cursor = parseTimelineCursor(rawCursor);
  // ?consentimento=PURPOSE: the consent dialog (admins and staff).
  const consentPurpose = url.searchParams.get("consentimento");
  if (consentPurpose !== null) assertCan(user, "patients", "edit");
  if (consentPurpose !== null && !isConsentPurpose(consentPurpose)) notFound("Consentimento não encontrado.");
  // ?dialog=anonimizar: the erasure request's confirmation (admins).
  const anonymiseDialog = url.searchParams.get("dialog") === "anonimizar";
  if (anonymiseDialog) assertCan(user, "patients", "delete");
  const anonymized = anonymisedAt(id);
  recordView(request, user, "patient", id, cursor ? { timeline: rawCursor } : undefined);
  return {
    pageTitle: patient.name,
    patient,
    counts: timelineCounts(id),
    timeline: patientTimeline(id, cursor),
    documents: can(user, "files", "view") ? recentPatientDocuments(id) : [],
    fromTop: !cursor,
    consents: patientConsentStates(id),
    consentDialog: consentPurpose && isConsentPurpose(consentPurpose) ? { purpose: consentPurpose, history: consentHistory(id, consentPurpose) } : null,
    lgpd: {
      consents: can(user, "patients", "edit"),
      accessReport: can(user, "audit", "view"),
      export: can(user, "patients", "export"),
      anonymise: can(user, "patients", "delete") && !anonymized,
    },
    anonymizedAt: anonymized,
    anonymiseDialog: anonymiseDialog && !anonymized,
    actions: {
      edit: can(user, "patients", "edit"),
      appointment: can(user, "appointments", "create"),
      surgery: can(user, "surgeries", "create"),
      message: can(user, "communication", "create"),
      upload: can(user, "files", "create"),
      drive: can(user, "googleDrive", "create") && connectionStatus().connected,
    },
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requirePermission(request, "patients", "view");
  const id = parseId(params.id) ?? notFound("Paciente não encontrado.");
  if (!getPatientRecord(id)) notFound("Paciente não encontrado.");
  return dispatchIntent(request, user, { back: `/patients/${id}`, notFoundMessage: "Paciente não encontrado.", intents: patientRecordIntents(id) });
}

type LoaderData = Route.ComponentProps["loaderData"];

const KIND_LABELS: Record<TimelineKind, string> = {
  appointment: "Consulta",
  surgery: "Cirurgia",
  message: "Mensagem",
  task: "Tarefa",
  document: "Documento",
};
const KIND_ICONS = { appointment: Stethoscope, surgery: Scissors, message: MessageSquare, task: ListTodo, document: FileText };

function stateLabel(item: TimelineItem): string | null {
  switch (item.kind) {
    case "appointment":
      return labelFor(APPOINTMENT_STATUS_LABELS, item.state);
    case "surgery":
      return `Etapa: ${labelFor(PIPELINE_STAGE_LABELS, item.state)}`;
    case "message":
      return labelFor(MESSAGE_STATUS_LABELS, item.state);
    case "task":
      return labelFor(TASK_STATUS_LABELS, item.state);
    case "document":
      return labelFor(DOCUMENT_CATEGORY_LABELS, item.state);
  }
}

/** Where an event of the timeline opens (its dialog, or the file itself). */
function itemHref(item: TimelineItem, patientId: number): string | null {
  const back = `returnTo=${encodeURIComponent(`/patients/${patientId}`)}`;
  switch (item.kind) {
    case "appointment":
      return `/appointments?edit=${item.id}&${back}`;
    case "surgery":
      return `/surgeries?edit=${item.id}`;
    case "document":
      return `/files/${item.id}/download`;
    default:
      return null;
  }
}

function ageOn(dateOfBirth: string, today: string): number {
  const [y, m, d] = dateOfBirth.split("-").map(Number);
  const [ty, tm, td] = today.split("-").map(Number);
  return ty - y - (tm < m || (tm === m && td < d) ? 1 : 0);
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className="break-words">{children || "-"}</dd>
    </div>
  );
}

/** Links that open the existing dialogs with this patient already chosen; saving comes back here. */
function quickActions(patientId: number, actions: LoaderData["actions"]) {
  const here = `/patients/${patientId}`;
  const list: { label: string; href: string; icon: typeof CalendarPlus }[] = [];
  if (actions.appointment) {
    const query = new URLSearchParams({ dialog: "new", picker: "patient", patientId: String(patientId), status: "scheduled", returnTo: here });
    list.push({ label: "Agendar consulta", href: `/appointments?${query}`, icon: CalendarPlus });
  }
  if (actions.surgery) {
    const query = new URLSearchParams({ dialog: "new", picker: "patient", patientId: String(patientId), surgeryStatus: "scheduled", currentStage: "aguarda_docs" });
    list.push({ label: "Agendar cirurgia", href: `/surgeries?${query}`, icon: Scissors });
  }
  if (actions.message) {
    const query = new URLSearchParams({ dialog: "send", patientId: String(patientId) });
    list.push({ label: "Enviar mensagem", href: `/comunicacao?${query}`, icon: MessageSquare });
  }
  if (actions.upload) {
    const query = new URLSearchParams({ dialog: "upload", patientId: String(patientId), returnTo: here });
    list.push({ label: "Enviar documento", href: `/files?${query}`, icon: Upload });
  }
  if (actions.edit) list.push({ label: "Editar cadastro", href: `/patients?edit=${patientId}`, icon: Pencil });
  return list;
}

export default function PatientPage({ loaderData, actionData }: Route.ComponentProps) {
  const { patient, counts, timeline, fromTop, actions, documents } = loaderData;
  const failed = actionData && "intent" in actionData ? actionData : undefined;
  const today = todayIsoInClinic();

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          {/* The page's heading (the shell's h1) is the patient's name. */}
          <p className="text-sm text-muted-foreground">
            Cadastrado em {formatDate(patient.createdAt)} · última alteração em {formatDateTime(patient.updatedAt)}
          </p>
        </div>
        <nav aria-label="Ações rápidas" className="flex flex-wrap gap-2">
          {quickActions(patient.id, actions).map(({ label, href, icon: Icon }) => (
            <ButtonLink key={label} to={href} variant="outline" size="sm">
              <Icon aria-hidden="true" />
              {label}
            </ButtonLink>
          ))}
        </nav>
      </div>

      <div className="grid gap-4 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle as="h2">Identificação e contato</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid gap-4 text-sm sm:grid-cols-2">
              <Fact label="CPF">{patient.cpf ? formatCpf(patient.cpf) : null}</Fact>
              <Fact label="Data de nascimento">
                {patient.dateOfBirth ? `${formatIsoDate(patient.dateOfBirth)} (${ageOn(patient.dateOfBirth, today)} anos)` : null}
              </Fact>
              <Fact label="Telefone">{patient.phone ? formatPhone(patient.phone) : null}</Fact>
              <Fact label="E-mail">{patient.email}</Fact>
              <Fact label="Endereço">{patient.address}</Fact>
              <Fact label="Encaminhado por">{patient.referrerName}</Fact>
            </dl>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle as="h2">Convênio e consentimento</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid gap-4 text-sm">
              <Fact label="Convênio">{patient.insurance}</Fact>
              <Fact label="Número da carteirinha">{patient.insuranceCardNumber}</Fact>
              <Fact label="WhatsApp">
                {patient.whatsappOptIn
                  ? `Autorizado${patient.whatsappOptInAt ? ` em ${formatDateTime(patient.whatsappOptInAt)}` : ""}`
                  : "Não autorizado"}
              </Fact>
            </dl>
          </CardContent>
        </Card>
      </div>

      <ConsentsCard
        consents={loaderData.consents}
        hrefFor={loaderData.lgpd.consents ? (purpose) => `/patients/${patient.id}?consentimento=${purpose}` : null}
      />
      {loaderData.anonymizedAt ? (
        <p className="rounded-md border bg-muted/40 p-3 text-sm" role="note">
          Dados de identificação removidos a pedido do paciente em {formatDateTime(loaderData.anonymizedAt)} (LGPD). O prontuário e os
          registros financeiros são mantidos pelo prazo legal.
        </p>
      ) : null}
      {loaderData.lgpd.accessReport || loaderData.lgpd.export || loaderData.lgpd.anonymise ? (
        <nav aria-label="Direitos do titular (LGPD)" className="flex flex-wrap gap-2">
          {loaderData.lgpd.accessReport ? (
            <ButtonLink to={`/patients/${patient.id}/acessos`} variant="outline" size="sm">
              <History aria-hidden="true" />
              Relatório de acessos
            </ButtonLink>
          ) : null}
          {loaderData.lgpd.export ? (
            <ButtonLink to={`/patients/${patient.id}/export.zip`} reloadDocument variant="outline" size="sm">
              <Download aria-hidden="true" />
              Exportar dados (LGPD)
            </ButtonLink>
          ) : null}
          {loaderData.lgpd.anonymise ? (
            <ButtonLink to={`/patients/${patient.id}?dialog=anonimizar`} preventScrollReset variant="outline" size="sm">
              <UserX aria-hidden="true" />
              Anonimizar paciente
            </ButtonLink>
          ) : null}
        </nav>
      ) : null}
      {loaderData.anonymiseDialog ? (
        <AnonymiseDialog
          patientName={patient.name}
          closeTo={`/patients/${patient.id}`}
          lastResult={failed?.intent === "anonymise" ? failed.result : undefined}
        />
      ) : null}
      {loaderData.consentDialog ? (
        <ConsentDialog
          key={loaderData.consentDialog.purpose}
          purpose={loaderData.consentDialog.purpose}
          history={loaderData.consentDialog.history}
          historyLimit={CONSENT_HISTORY_LIMIT}
          closeTo={`/patients/${patient.id}`}
          lastResult={failed?.intent === "record-consent" ? failed.result : undefined}
        />
      ) : null}

      {patient.medicalHistory ? (
        <Card>
          <CardHeader>
            <CardTitle as="h2">Histórico médico</CardTitle>
          </CardHeader>
          <CardContent>
            <p className="text-sm whitespace-pre-line">{patient.medicalHistory}</p>
          </CardContent>
        </Card>
      ) : null}

      {documents.length ? (
        <Card>
          <CardHeader>
            <CardTitle as="h2">Documentos</CardTitle>
          </CardHeader>
          <CardContent className="space-y-3">
            <ul className="divide-y text-sm" aria-label="Documentos recentes">
              {documents.map((doc) => (
                <li key={doc.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2">
                  <FileText aria-hidden className="size-4 text-muted-foreground" />
                  <Link to={`/files/${doc.id}/download`} reloadDocument className="font-medium break-all hover:underline">
                    {doc.originalName}
                  </Link>
                  <Badge variant="outline">{labelFor(DOCUMENT_CATEGORY_LABELS, doc.category)}</Badge>
                  <span className="text-muted-foreground tabular-nums">{formatDateTime(doc.createdAt)}</span>
                  {actions.drive ? <GoogleDriveSendButton documentId={doc.id} name={doc.originalName} returnTo={`/patients/${patient.id}`} /> : null}
                </li>
              ))}
            </ul>
            <Link to={`/files?patient=${patient.id}`} className="text-sm underline">
              Ver todos os {counts.document} documentos
            </Link>
          </CardContent>
        </Card>
      ) : null}

      <section aria-labelledby="timeline-title" className="space-y-3">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="timeline-title" className="text-lg font-semibold">
            Linha do tempo
          </h2>
          <p className="text-sm text-muted-foreground" data-testid="timeline-counts">
            {counts.appointment} consultas · {counts.surgery} cirurgias · {counts.message} mensagens · {counts.task} tarefas ·{" "}
            {counts.document} documentos
          </p>
        </div>
        {timeline.items.length === 0 ? (
          <EmptyState icon={History} title="Nada registrado ainda" description="Consultas, cirurgias, mensagens, tarefas e documentos deste paciente aparecem aqui." className="bg-card" />
        ) : (
          <ol aria-label="Linha do tempo do paciente" className="divide-y rounded-xl border bg-card text-card-foreground shadow-sm">
            {timeline.items.map((item) => {
              const Icon = KIND_ICONS[item.kind];
              const href = itemHref(item, patient.id);
              return (
                <li key={`${item.kind}-${item.id}`} className="flex gap-3 p-4" data-testid="timeline-item" data-kind={item.kind}>
                  <Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-muted-foreground" />
                  <div className="min-w-0 flex-1 space-y-1">
                    <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
                      <span className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{KIND_LABELS[item.kind]}</span>
                      <time className="text-sm tabular-nums" dateTime={new Date(item.at).toISOString()}>
                        {formatDateTime(item.at)}
                      </time>
                      <Badge variant="outline">{stateLabel(item)}</Badge>
                    </p>
                    <p className="font-medium break-words">
                      {href ? (
                        <Link to={href} className="rounded-sm hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none" reloadDocument={item.kind === "document"}>
                          {item.title}
                        </Link>
                      ) : (
                        item.title
                      )}
                    </p>
                    {item.detail ? (
                      <p className="text-sm break-words text-muted-foreground">
                        {item.kind === "task" ? `Prazo: ${formatIsoDate(item.detail)}` : item.detail}
                      </p>
                    ) : null}
                  </div>
                </li>
              );
            })}
          </ol>
        )}
        {timeline.next || !fromTop ? (
          <nav aria-label="Páginas da linha do tempo" className="flex flex-wrap gap-2">
            {!fromTop ? (
              <ButtonLink to={`/patients/${patient.id}`} variant="outline" size="sm">
                Mais recentes
              </ButtonLink>
            ) : null}
            {timeline.next ? (
              <ButtonLink to={`/patients/${patient.id}?ate=${timeline.next}`} variant="outline" size="sm">
                Mais antigos
              </ButtonLink>
            ) : null}
          </nav>
        ) : null}
      </section>
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
