import { ArrowRightLeft, CalendarDays, Clock, GripVertical } from "~/components/icons";
import type { ReactNode } from "react";
import { useFetcher } from "react-router";
import { Link } from "~/components/ui/link";
import { Badge, type BadgeVariant } from "~/components/ui/badge";
import { type AnsState, type AnsTone, ANS_CLOCK_LABELS, ansText } from "~/lib/ans";
import { OPME_MIN_SUPPLIERS, approvalNeedsJustification, opmeBadgeText } from "~/lib/opme";
import { PIPELINE_STAGES, type PipelineStage } from "~/lib/pipeline";
import type { Toast } from "~/lib/toast";
import { useToastEffect } from "~/lib/use-toast-effect";
import { cn } from "~/lib/utils";

/** What the board shows of a surgery (built by the loader: app/models/pipeline.server.ts). */
export interface BoardCard {
  id: number;
  patientName: string;
  doctorName: string;
  surgeryType: string;
  hospital: string | null;
  payerName: string | null;
  /** The scheduled date and time as the clinic reads it (formatted by the loader: no date library in the board's first load). */
  scheduledText: string;
  /** The ANS clock's last day, dd/MM/yyyy. */
  ansDueText: string | null;
  stage: PipelineStage;
  daysInStage: number;
  ans: AnsState | null;
  /** Different suppliers quoting the OPME, when the surgery has an OPME request or is in 'OPME em Cotação'. */
  opme?: { suppliers: number } | null;
}

const ANS_BADGES: Record<AnsTone, BadgeVariant> = { ok: "secondary", warning: "warning", overdue: "destructive" };

export function moveFetcherKey(id: number) {
  return `pipeline-move-${id}`;
}

export function daysInStageText(days: number) {
  if (days === 0) return "Nesta etapa desde hoje";
  return `${days} ${days === 1 ? "dia" : "dias"} nesta etapa`;
}

/**
 * One surgery on the board. Its 'Mover' menu is a native disclosure with one small form per stage,
 * so a move works without JavaScript; with it, the form goes through a fetcher (the card moves at
 * once and comes back, with 'Erro ao atualizar status', when the server refuses). A move to
 * 'Negado' opens the denial form instead (`denyHref`).
 */
export function PipelineCard({
  card,
  canMove,
  denyHref,
  dragHandle,
  pending = false,
  showsFeedback = true,
}: {
  card: BoardCard;
  canMove: boolean;
  denyHref: string;
  /** The drag-and-drop handle, once the drag-and-drop code has loaded. */
  dragHandle?: ReactNode;
  pending?: boolean;
  /** Toast the move's refusal here (false on the board, whose cards remount as they move: MoveFeedback does it). */
  showsFeedback?: boolean;
}) {
  const fetcher = useFetcher<{ toast?: Toast }>({ key: moveFetcherKey(card.id) });
  useToastEffect(showsFeedback && fetcher.state === "idle" ? fetcher.data?.toast : undefined);
  const titleId = `card-${card.id}-title`;

  return (
    <article
      aria-labelledby={titleId}
      data-card={card.id}
      className={cn("space-y-2 rounded-md border bg-card p-3 text-sm shadow-xs", pending && "opacity-60")}
    >
      <div className="flex items-start justify-between gap-2">
        <Link id={titleId} to={`/pipeline/${card.id}`} className="font-medium underline-offset-2 hover:underline">
          {card.patientName}
        </Link>
        {dragHandle}
      </div>
      <p className="text-foreground">{card.surgeryType}</p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-2 gap-y-0.5 text-xs text-muted-foreground">
        <dt>Médico</dt>
        <dd className="text-foreground">{card.doctorName}</dd>
        <dt>Hospital</dt>
        <dd>{card.hospital || "-"}</dd>
        <dt>Pagador</dt>
        <dd>{card.payerName || "-"}</dd>
        <dt>
          <CalendarDays aria-hidden className="inline size-3" /> <span className="sr-only">Data</span>
        </dt>
        <dd className="tabular-nums">{card.scheduledText}</dd>
      </dl>
      <div className="flex flex-wrap gap-1">
        <Badge variant="outline">
          <Clock aria-hidden />
          {daysInStageText(card.daysInStage)}
        </Badge>
        {card.ans ? (
          <Badge
            variant={ANS_BADGES[card.ans.tone]}
            title={`${ANS_CLOCK_LABELS[card.ans.clock]}: prazo até ${card.ansDueText}`}
          >
            {ansText(card.ans)}
          </Badge>
        ) : null}
        {card.opme ? (
          <Link to={`/pipeline/${card.id}/opme`} className="rounded-md focus-visible:ring-2 focus-visible:ring-ring" aria-label={`${opmeBadgeText(card.opme.suppliers)} de ${card.patientName}`}>
            <Badge variant={card.opme.suppliers >= OPME_MIN_SUPPLIERS ? "success" : "outline"}>{opmeBadgeText(card.opme.suppliers)}</Badge>
          </Link>
        ) : null}
      </div>
      {canMove ? <MoveMenu card={card} denyHref={denyHref} fetcher={fetcher} /> : null}
    </article>
  );
}

function MoveMenu({ card, denyHref, fetcher }: { card: BoardCard; denyHref: string; fetcher: ReturnType<typeof useFetcher> }) {
  return (
    <details className="group">
      <summary className="inline-flex cursor-pointer items-center gap-1 rounded-sm text-xs font-medium text-primary">
        <ArrowRightLeft aria-hidden className="size-3" />
        Mover<span className="sr-only"> {card.patientName}</span>
      </summary>
      <ul className="mt-2 grid gap-1" aria-label={`Mover ${card.patientName} para`}>
        {PIPELINE_STAGES.filter((stage) => stage.id !== card.stage).map((stage) => (
          <li key={stage.id}>
            {stage.id === "negado" ? (
              <Link to={denyHref} preventScrollReset className="block rounded-sm px-2 py-1 text-xs hover:bg-accent">
                {stage.label}
              </Link>
            ) : stage.id === "aprovado" && approvalNeedsJustification(card.opme ?? null) ? (
              <Link to={approveHref(card.id, denyHref)} preventScrollReset className="block rounded-sm px-2 py-1 text-xs hover:bg-accent">
                {stage.label}
              </Link>
            ) : (
              <fetcher.Form method="post" preventScrollReset>
                <input type="hidden" name="intent" value="move" />
                <input type="hidden" name="id" value={card.id} />
                <input type="hidden" name="to" value={stage.id} />
                <button type="submit" className="w-full rounded-sm px-2 py-1 text-left text-xs hover:bg-accent">
                  {stage.label}
                </button>
              </fetcher.Form>
            )}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** The approval form of a card whose OPME lacks three suppliers (a justification), returning where the denial form would. */
export function approveHref(id: number, denyHref: string) {
  const back = new URLSearchParams(denyHref.split("?")[1] ?? "").get("voltar");
  return `/pipeline/${id}/aprovar${back ? `?voltar=${encodeURIComponent(back)}` : ""}`;
}

/**
 * Toasts a card's refused move ('Erro ao atualizar status'). Mounted once per card for as long as the
 * board shows it, so the fetcher's answer outlives the card's trip to another column and back.
 */
export function MoveFeedback({ id }: { id: number }) {
  const fetcher = useFetcher<{ toast?: Toast }>({ key: moveFetcherKey(id) });
  useToastEffect(fetcher.state === "idle" ? fetcher.data?.toast : undefined);
  return null;
}

/** The drag handle's look (the drag-and-drop module gives it its listeners). */
export function DragHandleIcon() {
  return <GripVertical aria-hidden className="size-4" />;
}
