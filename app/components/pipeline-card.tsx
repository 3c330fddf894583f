import { GripVertical } from "~/components/icons";
import { type ReactNode, useState } from "react";
import { useFetcher } from "react-router";
import { Link } from "~/components/ui/link";
import { Badge, type BadgeVariant } from "~/components/ui/badge";
import { type AnsState, type AnsTone, ANS_CLOCK_LABELS, ansText } from "~/lib/ans";
import { OPME_MIN_SUPPLIERS, approvalNeedsJustification, opmeBadgeText } from "~/lib/opme";
import { PIPELINE_STAGES, type PipelineStage } from "~/lib/pipeline";
import type { Toast } from "~/lib/toast";
import { useToastEffect } from "~/lib/use-toast-effect";

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
  stage: PipelineStage;
  daysInStage: number;
  /** The ANS clock, on cards whose stage runs one (absent otherwise). */
  ans?: AnsState | null;
  /** The ANS clock's last day, dd/MM/yyyy, with `ans`. */
  ansDueText?: string | null;
  /** Different suppliers quoting the OPME, when the surgery has an OPME request or is in 'OPME em Cotação' (absent otherwise). */
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
 *
 * The menu's forms are rendered when it opens, not with every card: a board of a hundred cards
 * would otherwise send nine forms each. In the browser opening it renders them at once; without
 * JavaScript the open menu offers a link to the same board with this card's menu rendered open
 * (`menuHref`, the `mover` parameter).
 */
export function PipelineCard({
  card,
  canMove,
  denyHref,
  menuHref,
  menuOpen = false,
  dragHandle,
  pending = false,
  showsFeedback = true,
}: {
  card: BoardCard;
  canMove: boolean;
  denyHref: string;
  /** This page with the card's menu open: where 'Mover' leads without JavaScript. */
  menuHref: string;
  /** The menu is open from the start (the page's `mover` is this card). */
  menuOpen?: boolean;
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
    <article aria-labelledby={titleId} className={pending ? "pipeline-card opacity-60" : "pipeline-card"}>
      <div className="pipeline-card-head">
        <Link id={titleId} to={`/pipeline/${card.id}`} className="pipeline-card-title">
          {card.patientName}
        </Link>
        {dragHandle}
      </div>
      <p>{card.surgeryType}</p>
      <dl className="pipeline-card-facts">
        <dt>Médico</dt>
        <dd>{card.doctorName}</dd>
        <dt>Hospital</dt>
        <dd>{card.hospital || "-"}</dd>
        <dt>Pagador</dt>
        <dd>{card.payerName || "-"}</dd>
        <dt className="ico-calendar-days">
          <span className="sr-only">Data</span>
        </dt>
        <dd>{card.scheduledText}</dd>
      </dl>
      <div className="flex flex-wrap gap-1">
        <Badge variant="outline" className="ico-clock">
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
      {canMove ? <MoveMenu card={card} denyHref={denyHref} menuHref={menuHref} initiallyOpen={menuOpen} fetcher={fetcher} /> : null}
    </article>
  );
}

function MoveMenu({
  card,
  denyHref,
  menuHref,
  initiallyOpen,
  fetcher,
}: {
  card: BoardCard;
  denyHref: string;
  menuHref: string;
  initiallyOpen: boolean;
  fetcher: ReturnType<typeof useFetcher>;
}) {
  const [open, setOpen] = useState(initiallyOpen);
  return (
    <details className="move-menu" open={initiallyOpen} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className="ico-arrow-right-left">
        Mover<span className="sr-only">{` ${card.patientName}`}</span>
      </summary>
      {open ? (
        <ul className="mt-2 grid gap-1" aria-label={`Mover ${card.patientName} para`}>
          {PIPELINE_STAGES.filter((stage) => stage.id !== card.stage).map((stage) => (
            <li key={stage.id}>
              {stage.id === "negado" ? (
                <Link to={denyHref} preventScrollReset className="move-menu-item">
                  {stage.label}
                </Link>
              ) : stage.id === "aprovado" && approvalNeedsJustification(card.opme ?? null) ? (
                <Link to={approveHref(card.id, denyHref)} preventScrollReset className="move-menu-item">
                  {stage.label}
                </Link>
              ) : (
                <fetcher.Form method="post" preventScrollReset>
                  <input type="hidden" name="intent" value="move" />
                  <input type="hidden" name="id" value={card.id} />
                  <input type="hidden" name="to" value={stage.id} />
                  <button type="submit" className="move-menu-item">
                    {stage.label}
                  </button>
                </fetcher.Form>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <Link to={menuHref} className="move-menu-item">
          Escolher a etapa<span className="sr-only">{` de ${card.patientName}`}</span>
        </Link>
      )}
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
