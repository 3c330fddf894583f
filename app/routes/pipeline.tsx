import { FilterBar, type FilterField } from "~/components/filter-bar";
import { type PackedBoardColumn, PipelineBoard, unpackBoard, useHrefWith } from "~/components/pipeline-board";
import { PipelineColumnPage } from "~/components/pipeline-column";
import { RouteErrorBoundary } from "~/components/route-error";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { requirePermission } from "~/.server/auth";
import { dispatchIntent } from "~/.server/intent-action";
import { routeUrl } from "~/.server/route-url";
import { listUrl, parseId, parseListState } from "~/lib/list-params";
import { PIPELINE_LIST } from "~/lib/lists";
import { can } from "~/lib/permissions";
import { stageLabel } from "~/lib/pipeline";
import { useToastEffect } from "~/lib/use-toast-effect";
import { MOVE_FAILED, moveIntent } from "~/models/pipeline-intents.server";
import { boardForPage, columnUntilWrite } from "~/models/pipeline.server";
import { listDoctorFilterOptions } from "~/models/doctor-options.server";
import { optionsOf } from "~/models/filter-options.server";
import { listHospitalOptions, listPayerOptions } from "~/models/surgery.server";
import type { Route } from "./+types/pipeline";
import { registryOption } from "~/lib/form-options";

export const handle = { title: "Pipeline Cirúrgico", subtitle: "Cirurgias por etapa da autorização ao faturamento" };
export const meta: Route.MetaFunction = () => [{ title: "Pipeline Cirúrgico · Sinapse" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "pipeline", "view");
  const url = routeUrl(request);
  const { filters, ...params } = parseListState(url, PIPELINE_LIST);
  const canMove = can(user, "pipeline", "edit");
  return {
    filters,
    // The card whose move menu is open (without JavaScript, 'Mover' reloads the page with it).
    moving: canMove ? parseId(url.searchParams.get("mover")) : null,
    board: filters.column ? null : boardForPage(filters),
    column: filters.column ? { stage: filters.column, label: stageLabel(filters.column), ...columnUntilWrite(filters.column, params, filters) } : null,
    filterOptions: {
      doctors: optionsOf(listDoctorFilterOptions(), registryOption),
      payers: optionsOf(listPayerOptions(filters.payerId), registryOption),
      hospitals: optionsOf(listHospitalOptions(filters.hospitalId), registryOption),
    },
    canMove,
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, "pipeline", "view");
  const result = await dispatchIntent(request, user, {
    back: listUrl(routeUrl(request), PIPELINE_LIST),
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
      {board ? <PipelineBoard columns={unpackBoard(board.columns as PackedBoardColumn[])} canMove={canMove} moving={moving} hrefWith={hrefWith} /> : null}
      {column ? <PipelineColumnPage column={column} canMove={canMove} moving={moving} hrefWith={hrefWith} /> : null}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
