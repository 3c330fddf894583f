import { History } from "~/components/icons";
import { Link } from "~/components/ui/link";
import { EmptyState } from "~/components/empty-state";
import { Badge } from "~/components/ui/badge";
import { ButtonLink } from "~/components/ui/button";
import { CachedElement, cacheKeyOf } from "~/lib/markup-cache";
import { formatDateTime, formatIsoDate } from "~/lib/dates";
import { APPOINTMENT_STATUS_LABELS, DOCUMENT_CATEGORY_LABELS, MESSAGE_STATUS_LABELS, TASK_STATUS_LABELS, labelFor } from "~/lib/enums";
import { PIPELINE_STAGE_LABELS } from "~/lib/pipeline";
import type { TimelineItem, TimelineKind, patientTimeline } from "~/models/patient-record.server";

const KIND_LABELS: Record<TimelineKind, string> = {
  appointment: "Consulta",
  surgery: "Cirurgia",
  message: "Mensagem",
  task: "Tarefa",
  document: "Documento",
};
/** Each kind's icon, drawn by CSS (`.ico-*`, app.css): a page shows 25 of them. */
const KIND_ICONS: Record<TimelineKind, string> = {
  appointment: "ico-stethoscope",
  surgery: "ico-scissors",
  message: "ico-message-square",
  task: "ico-list-todo",
  document: "ico-file-text",
};

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

/** 'Linha do tempo': every event of the patient, newest first, a page at a time ('Mais recentes', 'Mais antigos'). */
export function PatientTimeline({
  patientId,
  counts,
  timeline,
  fromTop,
}: {
  patientId: number;
  counts: Record<TimelineKind, number>;
  timeline: ReturnType<typeof patientTimeline>;
  /** The first page (no ?ate= cursor). */
  fromTop: boolean;
}) {
  return (
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
        // The rows' markup is kept per page of events (the loader's kept rows, until the next write).
        <CachedElement
          as="ol"
          id="patient-timeline"
          aria-label="Linha do tempo do paciente"
          className="divide-y rounded-xl border bg-card text-card-foreground shadow-sm"
          cacheKey={cacheKeyOf(["timeline", patientId], timeline.items)}
        >
          {() => timeline.items.map((item) => {
            const href = itemHref(item, patientId);
            return (
              <li key={`${item.kind}-${item.id}`} className={`timeline-item ${KIND_ICONS[item.kind]}`} data-testid="timeline-item" data-kind={item.kind}>
                <div className="timeline-body">
                  <p className="timeline-head">
                    <span className="timeline-kind">{KIND_LABELS[item.kind]}</span>
                    <time className="timeline-time" dateTime={new Date(item.at).toISOString()}>
                      {formatDateTime(item.at)}
                    </time>
                    <Badge variant="outline">{stateLabel(item)}</Badge>
                  </p>
                  <p className="timeline-title">
                    {href ? (
                      <Link to={href} className="entry-link" reloadDocument={item.kind === "document"}>
                        {item.title}
                      </Link>
                    ) : (
                      item.title
                    )}
                  </p>
                  {item.detail ? <p className="timeline-detail">{item.kind === "task" ? `Prazo: ${formatIsoDate(item.detail)}` : item.detail}</p> : null}
                </div>
              </li>
            );
          })}
        </CachedElement>
      )}
      {timeline.next || !fromTop ? (
        <nav aria-label="Páginas da linha do tempo" className="flex flex-wrap gap-2">
          {!fromTop ? (
            <ButtonLink to={`/patients/${patientId}`} variant="outline" size="sm">
              Mais recentes
            </ButtonLink>
          ) : null}
          {timeline.next ? (
            <ButtonLink to={`/patients/${patientId}?ate=${timeline.next}`} variant="outline" size="sm">
              Mais antigos
            </ButtonLink>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}
