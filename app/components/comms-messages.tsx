import { ArrowDownLeft } from "~/components/icons";
import { Link } from "~/components/ui/link";
import { Badge, type BadgeVariant } from "~/components/ui/badge";
import { formatDateTime } from "~/lib/dates";
import { CachedElement, cacheKeyOf } from "~/lib/markup-cache";
import { MESSAGE_STATUS_LABELS, type MessageStatus } from "~/lib/enums";

const STATUS_VARIANTS: Record<MessageStatus, BadgeVariant> = {
  queued: "secondary",
  sent: "info",
  delivered: "success",
  read: "success",
  failed: "destructive",
};

/** A message's status as a badge ('Recebida' for a patient's own message). */
export function MessageStatusBadge({ status, direction }: { status: MessageStatus; direction: "outbound" | "inbound" }) {
  if (direction === "inbound") return <Badge variant="outline">Recebida</Badge>;
  return <Badge variant={STATUS_VARIANTS[status]}>{MESSAGE_STATUS_LABELS[status]}</Badge>;
}

export interface MessageItem {
  id: number;
  createdAt: Date;
  patientId: number | null;
  patientName: string;
  templateTitle: string | null;
  status: MessageStatus;
  direction: "outbound" | "inbound";
  error: string | null;
  preview: string;
}

/**
 * The recent messages (SPEC §2): patient, template, status, time and the body's first 100
 * characters, each reply link `replyTo` with the patient's `reply=`. Their markup is kept while the
 * same messages are shown (ADR 0025): they are kept until a message is written (`recentMessages`).
 */
export function RecentMessages({ messages, replyTo }: { messages: MessageItem[]; replyTo: string }) {
  if (!messages.length) return <p className="py-6 text-center text-sm text-muted-foreground">Nenhuma mensagem enviada ainda.</p>;
  return (
    <CachedElement as="ul" id="recent-messages" cacheKey={cacheKeyOf(["recent-messages", replyTo], messages)} className="divide-y" aria-label="Mensagens recentes">
      {() => messages.map((m) => (
        <li key={m.id} className="space-y-1 py-3">
          <div className="flex flex-wrap items-center gap-2">
            {m.direction === "inbound" ? <ArrowDownLeft aria-hidden className="size-4 text-muted-foreground" /> : null}
            <span className="font-medium">{m.patientName}</span>
            <span className="text-sm text-muted-foreground">{m.templateTitle ?? (m.direction === "inbound" ? "Resposta do paciente" : "Texto livre")}</span>
            <MessageStatusBadge status={m.status} direction={m.direction} />
            <time className="ml-auto text-xs text-muted-foreground tabular-nums" dateTime={m.createdAt.toISOString()}>
              {formatDateTime(m.createdAt)}
            </time>
          </div>
          <p className="text-sm text-muted-foreground">{m.preview}</p>
          {m.status === "failed" && m.error ? <p className="text-xs text-destructive">{m.error}</p> : null}
          {m.direction === "inbound" && m.patientId ? (
            <Link to={`${replyTo}&reply=${m.patientId}`} className="text-xs font-medium underline underline-offset-4" preventScrollReset>
              Responder
            </Link>
          ) : null}
        </li>
      ))}
    </CachedElement>
  );
}
