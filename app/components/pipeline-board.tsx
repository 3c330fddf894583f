import { type ComponentType, Fragment, type ReactNode, useEffect, useState } from "react";
import { useFetchers, useLocation, useNavigate, useSubmit } from "react-router";
import { Link } from "~/components/ui/link";
import { type BoardCard, MoveFeedback, PipelineCard, approveHref, moveFetcherKey } from "~/components/pipeline-card";
import { approvalNeedsJustification } from "~/lib/opme";
import { formatBRL } from "~/lib/money";
import { CachedElement, cacheKeyOf } from "~/lib/markup-cache";
import { type PackedRows, keptFor, unpackRows } from "~/lib/packed-rows";
import { type PipelineStage, isPipelineStage } from "~/lib/pipeline";
import { type ParamChanges, pathWithParams } from "~/lib/url";
import { useHydrated } from "~/lib/use-hydrated";
import type { DndLayerProps } from "./pipeline-dnd";

export interface BoardColumn {
  stage: PipelineStage;
  label: string;
  cards: BoardCard[];
  total: number;
  billedCents: number;
}

/** A column as the loader sends it: its cards as rows of values (`boardForPage`). */
export interface PackedBoardColumn extends Omit<BoardColumn, "cards"> {
  cards: PackedRows<BoardCard>;
}

const unpackedBoards = new WeakMap<object, BoardColumn[]>();

/** The board's columns with their cards unpacked, once per packed board: the same array on every view of it. */
export function unpackBoard(columns: readonly PackedBoardColumn[]): BoardColumn[] {
  return keptFor(unpackedBoards, columns, () => columns.map((column) => ({ ...column, cards: unpackRows(column.cards) })));
}

/** How the drag-and-drop layer wraps the columns and cards (identity until it has loaded). */
export interface BoardWrappers {
  column: (stage: PipelineStage, node: ReactNode) => ReactNode;
  /** Renders a card through `render`, giving it its drag handle. */
  card: (card: BoardCard, render: (handle: ReactNode) => ReactNode) => ReactNode;
}

const PLAIN: BoardWrappers = {
  column: (stage, node) => <Fragment key={stage}>{node}</Fragment>,
  card: (card, render) => <Fragment key={card.id}>{render(null)}</Fragment>,
};

/** Links to the board's URL with some params changed (null deletes). */
export function useHrefWith(): (changes: ParamChanges) => string {
  const { pathname, search } = useLocation();
  return (changes) => pathWithParams(pathname, search, changes);
}

/** Where a card's 'Mover' leads without JavaScript: this page with its menu open (`mover`), scrolled to it. */
export function menuHref(id: number, hrefWith: (changes: ParamChanges) => string) {
  return `${hrefWith({ mover: id })}#card-${id}-title`;
}

/** This page without an open card menu: where a move, a denial or an approval come back to. */
export function boardHref(hrefWith: (changes: ParamChanges) => string) {
  return hrefWith({ mover: null });
}

/** The denial form of a card ('Negado' asks for the reason), returning to `back`. */
export function denyHref(id: number, back: string) {
  return `/pipeline/${id}/negar?voltar=${encodeURIComponent(back)}`;
}

/** Moves in flight (fetchers still submitting or reloading): the card shows in its new column meanwhile. */
function usePendingMoves(): Map<number, PipelineStage> {
  const pending = new Map<number, PipelineStage>();
  for (const fetcher of useFetchers()) {
    const to = fetcher.formData?.get("to");
    const id = Number(fetcher.formData?.get("id"));
    if (fetcher.key.startsWith("pipeline-move-") && isPipelineStage(to) && Number.isSafeInteger(id)) pending.set(id, to);
  }
  return pending;
}

/**
 * The kanban: one column per stage, the cards in date order with the column's count and billed
 * total. Works as plain HTML; with JavaScript (and the right to move) it loads the drag-and-drop
 * layer on demand, so dnd-kit is never part of the page's first load. The server keeps the
 * columns' markup (ADR 0025) under everything it shows: the cards, the right to move and the page's
 * address (which names the card whose menu is open).
 */
export function PipelineBoard({
  columns,
  canMove,
  moving,
  hrefWith,
}: {
  columns: BoardColumn[];
  canMove: boolean;
  /** The card whose move menu the page opens (`mover`, for browsers without JavaScript). */
  moving: number | null;
  hrefWith: (changes: ParamChanges) => string;
}) {
  const [Dnd, setDnd] = useState<ComponentType<DndLayerProps> | null>(null);
  useEffect(() => {
    if (!canMove) return;
    let alive = true;
    void import("./pipeline-dnd").then((module) => alive && setDnd(() => module.DndLayer));
    return () => {
      alive = false;
    };
  }, [canMove]);

  const submit = useSubmit();
  const navigate = useNavigate();
  const pending = usePendingMoves();
  // A refused move is a fetcher's answer, so only the browser has any to show: the server renders
  // no MoveFeedback (a hundred fetchers' hooks per view, for nothing).
  const hydrated = useHydrated();
  const cards = new Map(columns.flatMap((column) => column.cards.map((card) => [card.id, card] as const)));
  const back = boardHref(hrefWith);

  const move = (id: number, to: PipelineStage) => {
    const card = cards.get(id);
    if (!card || (pending.get(id) ?? card.stage) === to) return;
    if (to === "negado") {
      navigate(denyHref(id, back));
      return;
    }
    if (to === "aprovado" && approvalNeedsJustification(card.opme ?? null)) {
      navigate(approveHref(id, denyHref(id, back)));
      return;
    }
    void submit({ intent: "move", id: String(id), to }, { method: "post", navigate: false, fetcherKey: moveFetcherKey(id), preventScrollReset: true });
  };

  // The optimistic board: cards of pending moves leave their column and head the new one.
  const shown = columns.map((column) => {
    const staying = column.cards.filter((card) => (pending.get(card.id) ?? card.stage) === column.stage);
    const arriving = [...pending]
      .filter(([id, to]) => to === column.stage && cards.get(id)?.stage !== column.stage)
      .map(([id]) => cards.get(id))
      .filter((card): card is BoardCard => !!card);
    const delta = arriving.length - (column.cards.length - staying.length);
    return { ...column, cards: [...arriving, ...staying], total: column.total + delta, arriving: new Set(arriving.map((c) => c.id)) };
  });

  const render = (wrap: BoardWrappers) => (
    <CachedElement
      as="div"
      id="pipeline-board"
      cacheKey={wrap === PLAIN && pending.size === 0 ? cacheKeyOf(["board", canMove, hrefWith({})], columns) : undefined}
      className="overflow-x-auto pb-2"
      role="region"
      aria-label="Quadro do pipeline cirúrgico"
      tabIndex={0}
    >
      {() => <div className="flex min-w-max gap-3">
        {shown.map((column) =>
          wrap.column(
            column.stage,
            <section
              key={column.stage}
              aria-labelledby={`column-${column.stage}`}
              data-stage={column.stage}
              className="flex w-64 shrink-0 flex-col gap-2 rounded-lg border bg-muted/40 p-2"
            >
              <header className="px-1">
                <h2 id={`column-${column.stage}`} className="flex items-center justify-between gap-2 text-sm font-semibold">
                  <span>{column.label}</span>
                  <span className="rounded-full bg-background px-2 text-xs tabular-nums" aria-label={`${column.total} cirurgias`}>
                    {column.total.toLocaleString("pt-BR")}
                  </span>
                </h2>
                <p className="text-xs text-muted-foreground tabular-nums">Faturado: {formatBRL(column.billedCents)}</p>
              </header>
              {column.cards.length === 0 ? <p className="px-1 py-4 text-center text-xs text-muted-foreground">Nenhuma cirurgia</p> : null}
              {column.cards.map((card) =>
                wrap.card(card, (handle) => (
                  <PipelineCard
                    card={{ ...card, stage: column.stage }}
                    canMove={canMove}
                    denyHref={denyHref(card.id, back)}
                    menuHref={menuHref(card.id, hrefWith)}
                    menuOpen={moving === card.id}
                    dragHandle={handle}
                    pending={column.arriving.has(card.id)}
                    showsFeedback={false}
                  />
                )),
              )}
              {column.total > column.cards.length ? (
                <Link to={hrefWith({ coluna: column.stage, mover: null })} className="px-1 text-xs font-medium text-primary underline-offset-2 hover:underline">
                  Ver todas ({column.total.toLocaleString("pt-BR")})
                </Link>
              ) : null}
            </section>,
          ),
        )}
      </div>}
    </CachedElement>
  );

  return (
    <>
      {Dnd ? <Dnd onMove={move} cards={cards}>{render}</Dnd> : render(PLAIN)}
      {hydrated ? [...cards.keys()].map((id) => <MoveFeedback key={id} id={id} />) : null}
    </>
  );
}
