import { FilterBar, type FilterField } from "~/components/filter-bar";
import { type BoardColumn, PipelineBoard, boardHref, denyHref, menuHref, useHrefWith } from "~/components/pipeline-board";
import { PipelineCard } from "~/components/pipeline-card";
import { RouteErrorBoundary } from "~/components/route-error";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { ButtonLink } from "~/components/ui/button";
import { requirePermission } from "~/.server/auth";
import { dispatchIntent } from "~/.server/intent-action";
import { formatBRL } from "~/lib/money";
import { listUrl, parseId, parseListState } from "~/lib/list-params";
import { PIPELINE_LIST } from "~/lib/lists";
import { can } from "~/lib/permissions";
import { stageLabel } from "~/lib/pipeline";
import { useToastEffect } from "~/lib/use-toast-effect";
import { MOVE_FAILED, moveIntent } from "~/models/pipeline-intents.server";
import { boardUntilWrite, loadColumn } from "~/models/pipeline.server";
import { listDoctorFilterOptions } from "~/models/doctor-options.server";
import { listHospitalOptions, listPayerOptions } from "~/models/surgery.server";
import type { Route } from "./+types/pipeline";

export const handle = { title: "Pipeline Cirúrgico", subtitle: "Cirurgias por etapa da autorização ao faturamento" };
export const meta: Route.MetaFunction = () => [{ title: "Pipeline Cirúrgico · Sinapse" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "pipeline", "view");
  const url = new URL(request.url);
  const { filters, ...params } = parseListState(url, PIPELINE_LIST);
  const options = (rows: { id: number; name: string; active: boolean }[]) =>
    rows.map((row) => ({ value: String(row.id), label: row.active ? row.name : `${row.name} (inativo)` }));
  const canMove = can(user, "pipeline", "edit");
  return {
    filters,
    // The card whose move menu is open (without JavaScript, 'Mover' reloads the page with it).
    moving: canMove ? parseId(url.searchParams.get("mover")) : null,
    board: filters.column ? null : boardUntilWrite(filters),
    column: filters.column ? { stage: filters.column, label: stageLabel(filters.column), ...loadColumn(filters.column, params, filters) } : null,
    filterOptions: {
      doctors: options(listDoctorFilterOptions()),
      payers: options(listPayerOptions(filters.payerId)),
      hospitals: options(listHospitalOptions(filters.hospitalId)),
    },
    canMove,
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, "pipeline", "view");
  const result = await dispatchIntent(request, user, {
    back: listUrl(new URL(request.url), PIPELINE_LIST),
    notFoundMessage: "Cirurgia não encontrada.",
    intents: {
      move: moveIntent(),
    },
  });
  // SPEC §8: a refused move reads 'Erro ao atualizar status'; the reason goes below it.
  if (result && "data" in result && result.data && typeof result.data === "object" && "toast" in result.data) {
    const toast = result.data.toast;
    if (toast && toast.message !== MOVE_FAILED) result.data.toast = { type: "error", message: MOVE_FAILED, description: toast.message };
  }
  return result;
}

type LoaderData = Route.ComponentProps["loaderData"];

export default function PipelinePage({ loaderData, actionData }: Route.ComponentProps) {
  const { filters, moving, board, column, filterOptions, canMove } = loaderData;
  const hrefWith = useHrefWith();
  useToastEffect(actionData?.toast);
  const failure = actionData?.toast ?? null;
  const fields: FilterField[] = [
    { name: "doctor", label: "Médico", all: "Todos os médicos", options: filterOptions.doctors, value: filters.doctorId, width: "w-48" },
    { name: "payer", label: "Pagador", all: "Todos os pagadores", options: filterOptions.payers, value: filters.payerId, width: "w-48" },
    { name: "hospital", label: "Hospital", all: "Todos os hospitais", options: filterOptions.hospitals, value: filters.hospitalId, width: "w-48" },
    { name: "ans", label: "Prazos ANS", all: "Todos os prazos", options: [{ value: "atrasadas", label: "Atrasadas ANS" }], value: filters.ans, width: "w-44" },
  ];

  return (
    <div className="space-y-4">
      <FilterBar label="Filtros do pipeline" fields={fields} keep={{ coluna: filters.column }} />
      {failure ? (
        <Alert variant="destructive">
          <AlertDescription>
            <p className="font-medium">{failure.message}</p>
            {failure.description ? <p>{failure.description}</p> : null}
          </AlertDescription>
        </Alert>
      ) : null}
      {board ? <PipelineBoard columns={board.columns as BoardColumn[]} canMove={canMove} moving={moving} hrefWith={hrefWith} /> : null}
      {column ? <ColumnPage column={column} canMove={canMove} moving={moving} hrefWith={hrefWith} /> : null}
    </div>
  );
}

/** One column on its own ('Ver todas'): its cards in date order, a page at a time. */
function ColumnPage({
  column,
  canMove,
  moving,
  hrefWith,
}: {
  column: NonNullable<LoaderData["column"]>;
  canMove: boolean;
  moving: number | null;
  hrefWith: ReturnType<typeof useHrefWith>;
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
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
        {column.rows.map((card) => (
          <PipelineCard
            key={card.id}
            card={card}
            canMove={canMove}
            denyHref={denyHref(card.id, boardHref(hrefWith))}
            menuHref={menuHref(card.id, hrefWith)}
            menuOpen={moving === card.id}
          />
        ))}
      </div>
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

export const ErrorBoundary = RouteErrorBoundary;
