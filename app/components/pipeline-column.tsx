import { boardHref, denyHref, menuHref } from "~/components/pipeline-board";
import { type BoardCard, PipelineCard } from "~/components/pipeline-card";
import { ButtonLink } from "~/components/ui/button";
import { CachedElement, cacheKeyOf } from "~/lib/markup-cache";
import { formatBRL } from "~/lib/money";
import type { PipelineStage } from "~/lib/pipeline";
import type { ParamChanges } from "~/lib/url";

/** A column's page as the pipeline's loader gives it ('Ver todas'). */
export interface PipelineColumn {
  stage: PipelineStage;
  label: string;
  rows: BoardCard[];
  page: number;
  pageSize: number;
  total: number;
  billedCents: number;
  next: string | null;
  prev: string | null;
}

/** One column on its own ('Ver todas'): its cards in date order, a page at a time. */
export function PipelineColumnPage({
  column,
  canMove,
  moving,
  hrefWith,
}: {
  column: PipelineColumn;
  canMove: boolean;
  /** The card whose move menu the page opens (`mover`, for browsers without JavaScript). */
  moving: number | null;
  hrefWith: (changes: ParamChanges) => string;
}) {
  const first = (column.page - 1) * column.pageSize + 1;
  return (
    <section aria-labelledby="column-title" className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <h2 id="column-title" className="text-lg font-semibold">
            {column.label}
          </h2>
          <p className="text-sm text-muted-foreground">
            {column.total.toLocaleString("pt-BR")} {column.total === 1 ? "cirurgia" : "cirurgias"} · Faturado: {formatBRL(column.billedCents)}
          </p>
        </div>
        <ButtonLink to={hrefWith({ coluna: null, after: null, before: null, page: null, mover: null })} variant="outline">
          Voltar ao quadro
        </ButtonLink>
      </div>
      {column.rows.length === 0 ? <p className="text-sm text-muted-foreground">Nenhuma cirurgia nesta etapa.</p> : null}
      {/* Kept like the board's columns (ADR 0025): under its cards, the right to move and the page's address. */}
      <CachedElement
        as="div"
        id="pipeline-column"
        cacheKey={cacheKeyOf(["column", canMove, hrefWith({})], column.rows)}
        className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4"
      >
        {() => column.rows.map((card) => (
          <PipelineCard
            key={card.id}
            card={card}
            canMove={canMove}
            denyHref={denyHref(card.id, boardHref(hrefWith))}
            menuHref={menuHref(card.id, hrefWith)}
            menuOpen={moving === card.id}
          />
        ))}
      </CachedElement>
      {column.rows.length > 0 ? (
        <nav aria-label="Páginas da etapa" className="flex items-center justify-between gap-2 text-sm">
          <span className="text-muted-foreground tabular-nums">
            {first.toLocaleString("pt-BR")}–{(first + column.rows.length - 1).toLocaleString("pt-BR")} de {column.total.toLocaleString("pt-BR")}
          </span>
          <span className="flex gap-2">
            {column.page > 1 ? (
              <ButtonLink
                variant="outline"
                to={hrefWith(
                  column.prev ? { before: column.prev, after: null, page: column.page - 1, mover: null } : { before: null, after: null, page: null, mover: null },
                )}
              >
                Anterior
              </ButtonLink>
            ) : null}
            {column.next ? (
              <ButtonLink variant="outline" to={hrefWith({ after: column.next, before: null, page: column.page + 1, mover: null })}>
                Próxima
              </ButtonLink>
            ) : null}
          </span>
        </nav>
      ) : null}
    </section>
  );
}
