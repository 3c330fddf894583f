import { ArrowLeft, Calculator, Download } from "~/components/icons";
import { Form, useLocation } from "react-router";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { type LastResult, SettingsForm, TeamForm } from "~/components/surgery-fees/fee-forms";
import { SurgeryFeeSummary } from "~/components/surgery-fees/fee-summary";
import { ProceduresCard } from "~/components/surgery-fees/procedures-card";
import { OverrideDialog } from "~/components/surgery-fees/fee-override-dialog";
import { FeeLinesTable } from "~/components/surgery-fees/fee-lines-table";
import { RouteErrorBoundary } from "~/components/route-error";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button, ButtonLink } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { requirePermission } from "~/.server/auth";
import { dispatchIntent, intent } from "~/.server/intent-action";
import { notFound } from "~/.server/responses";
import { routeUrl } from "~/.server/route-url";
import { formatDateTime } from "~/lib/dates";
import { CachedElement, cacheKeyOf } from "~/lib/markup-cache";
import { ACCOMMODATION_LABELS, SURGERY_TEAM_ROLES, labelFor } from "~/lib/enums";
import { parseId } from "~/lib/list-params";
import { formatBRL } from "~/lib/money";
import { can } from "~/lib/permissions";
import { useToastEffect } from "~/lib/use-toast-effect";
import {
  addSurgeryProcedure,
  feeViewerOf,
  overrideFeeLine,
  recomputeSurgeryFees,
  removeSurgeryProcedure,
  restoreFeeLine,
  saveFeeSettings,
  saveSurgeryTeam,
  surgeryFeeScreen,
  teamDoctorOptions,
} from "~/models/surgery-fees.server";
import { feeLineSchema, feeOverrideSchema, feeSettingsSchema, procedureSchema, removeProcedureSchema, teamSchema } from "~/validation/surgery-fees";
import { billedToInsurer } from "~/models/tiss-honorarios.server";
import type { Route } from "./+types/surgery-fees";

export const handle = { title: "Honorários da cirurgia", subtitle: "Procedimentos, equipe e o cálculo CBHPM de cada profissional" };
export const meta: Route.MetaFunction = () => [{ title: "Honorários da cirurgia · Sinapse" }];

const NOT_FOUND = "Cirurgia não encontrada.";

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requirePermission(request, "honorarios", "view");
  const id = parseId(params.id) ?? notFound(NOT_FOUND);
  const screen = surgeryFeeScreen(id, feeViewerOf(user)) ?? notFound(NOT_FOUND);
  const canEdit = can(user, "honorarios", "edit");
  const url = routeUrl(request);
  const adjustId = parseId(url.searchParams.get("ajustar"));
  const adjusting = canEdit && adjustId ? (screen.lines.find((line) => line.id === adjustId) ?? notFound("Linha de honorário não encontrada.")) : null;
  return {
    screen,
    canEdit,
    // The TISS Guia de Honorários: for a surgery billed to an insurer, admins and staff (ADR 0019).
    canTiss: can(user, "tiss", "view") && screen.lines.length > 0 && billedToInsurer(id),
    ownOnly: user.role === "doctor",
    confirmRecompute: canEdit && url.searchParams.get("recalcular") === "1",
    adjusting,
    doctorOptions: canEdit ? teamDoctorOptions(Object.values(screen.team).filter((v): v is number => typeof v === "number")) : [],
    closeTo: url.pathname,
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requirePermission(request, "honorarios", "view");
  const id = parseId(params.id) ?? notFound(NOT_FOUND);
  const back = `/surgeries/${id}/honorarios`;
  const edit = ["honorarios", "edit"] as const;
  return dispatchIntent(request, user, {
    back,
    notFoundMessage: NOT_FOUND,
    intents: {
      "add-procedure": intent({ permission: edit, schema: procedureSchema, run: ({ user, input }) => addSurgeryProcedure(user.id, id, input), success: "Procedimento adicionado" }),
      "remove-procedure": intent({ permission: edit, schema: removeProcedureSchema, run: ({ user, input }) => removeSurgeryProcedure(user.id, id, input.procedureId), success: "Procedimento removido" }),
      "save-team": intent({ permission: edit, schema: teamSchema, run: ({ user, input }) => saveSurgeryTeam(user.id, id, input), success: "Equipe atualizada" }),
      "save-settings": intent({ permission: edit, schema: feeSettingsSchema, run: ({ user, input }) => saveFeeSettings(user.id, id, input), success: "Acomodação e urgência atualizadas" }),
      recompute: intent({
        permission: edit,
        run: ({ user }) => recomputeSurgeryFees(user.id, id),
        success: "Honorários calculados",
        failure: "Não foi possível calcular os honorários",
      }),
      "override-line": intent({ permission: edit, schema: feeOverrideSchema, run: ({ user, input }) => overrideFeeLine(user.id, id, input), success: "Honorário ajustado" }),
      "restore-line": intent({ permission: edit, schema: feeLineSchema, run: ({ user, input }) => restoreFeeLine(user.id, id, input.lineId), success: "Valor calculado restaurado" }),
    },
  });
}

export default function SurgeryFeesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { screen, canEdit, canTiss, ownOnly, confirmRecompute, adjusting, doctorOptions, closeTo } = loaderData;
  const { pathname, search } = useLocation();
  useToastEffect(actionData?.toast);
  const resultOf = (name: string) => (actionData?.intent === name ? actionData.result : undefined);
  const recomputeError = actionData?.intent === "recompute" ? actionData.toast?.message : undefined;

  return (
    <div className="space-y-4">
      {/*
        The screen, kept per kept fee screen (until the next write), the team's doctors, the rights
        and the URL (its forms post to it); rendered afresh when a refused submission's errors show
        (ADR 0025).
      */}
      <CachedElement
        as="div"
        id="surgery-fees"
        className="space-y-4"
        cacheKey={actionData ? undefined : cacheKeyOf(["surgery-fees", pathname + search, canEdit, canTiss, ownOnly], screen, doctorOptions)}
      >
        {() => (
          <FeeScreen
            screen={screen}
            canEdit={canEdit}
            canTiss={canTiss}
            ownOnly={ownOnly}
            doctorOptions={doctorOptions}
            resultOf={resultOf}
            recomputeError={recomputeError}
          />
        )}
      </CachedElement>

      {confirmRecompute ? (
        <ConfirmDialog
          title="Recalcular honorários"
          message={`As ${screen.lines.length} linhas atuais (${formatBRL(screen.totalCents)}), com os ajustes manuais, serão substituídas pelo novo cálculo. As linhas anteriores ficam no registro de auditoria.`}
          fields={{ intent: "recompute" }}
          closeTo={closeTo}
          confirmLabel="Recalcular"
          pendingLabel="Calculando..."
          confirmVariant="default"
        />
      ) : null}
      {adjusting ? <OverrideDialog line={adjusting} closeTo={closeTo} lastResult={resultOf("override-line")} /> : null}
    </div>
  );
}

type LoaderData = Route.ComponentProps["loaderData"];

/** The summary, procedures, team, accommodation and fee lines; a refused form shows its errors (`resultOf`). */
function FeeScreen({
  screen,
  canEdit,
  canTiss,
  ownOnly,
  doctorOptions,
  resultOf,
  recomputeError,
}: Pick<LoaderData, "screen" | "canEdit" | "canTiss" | "ownOnly" | "doctorOptions"> & {
  resultOf: (intent: string) => LastResult;
  recomputeError: string | undefined;
}) {
  const { surgery, procedures, team, settings, urgency, lines, totalCents } = screen;
  return (
    <>
      <div className="flex flex-wrap gap-2">
        <ButtonLink to="/surgeries" variant="outline">
          <ArrowLeft aria-hidden />
          Voltar às cirurgias
        </ButtonLink>
        <ButtonLink to={`/pipeline/${surgery.id}`} variant="outline">
          Histórico no pipeline
        </ButtonLink>
        {canTiss ? (
          <ButtonLink to={`/surgeries/${surgery.id}/honorarios/tiss.xml`} reloadDocument variant="outline">
            <Download aria-hidden />
            Guia de Honorários TISS (XML)
          </ButtonLink>
        ) : null}
      </div>
      <SurgeryFeeSummary screen={screen} />

      {ownOnly ? null : <ProceduresCard procedures={procedures} canEdit={canEdit} lastResult={resultOf("add-procedure")} />}

      {ownOnly ? null : (
        <div className="grid gap-4 lg:grid-cols-2">
          <Card>
            <CardHeader>
              <CardTitle as="h2">Equipe</CardTitle>
            </CardHeader>
            <CardContent>
              {canEdit ? (
                <TeamForm team={team} doctorOptions={doctorOptions} lastResult={resultOf("save-team")} />
              ) : (
                <p className="text-sm text-muted-foreground">
                  {SURGERY_TEAM_ROLES.filter((role) => team[role]).length} profissional(is) na equipe; os nomes aparecem nas linhas de honorários.
                </p>
              )}
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle as="h2">Acomodação e urgência</CardTitle>
            </CardHeader>
            <CardContent>
              {canEdit ? (
                <SettingsForm settings={settings} lastResult={resultOf("save-settings")} />
              ) : (
                <p className="text-sm">
                  {labelFor(ACCOMMODATION_LABELS, settings.accommodation)} · urgência {urgency.urgent ? "sim" : "não"}
                </p>
              )}
            </CardContent>
          </Card>
        </div>
      )}

      <Card>
        <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
          <CardTitle as="h2">{ownOnly ? "Meus honorários nesta cirurgia" : "Honorários"}</CardTitle>
          {canEdit ? (
            lines.length ? (
              <ButtonLink to="?recalcular=1" variant="outline" preventScrollReset>
                <Calculator aria-hidden />
                Recalcular honorários
              </ButtonLink>
            ) : (
              <Form method="post" preventScrollReset>
                <input type="hidden" name="intent" value="recompute" />
                <Button type="submit">
                  <Calculator aria-hidden />
                  Calcular honorários
                </Button>
              </Form>
            )
          ) : null}
        </CardHeader>
        <CardContent className="space-y-3">
          {recomputeError ? (
            <Alert variant="destructive">
              <AlertDescription>{recomputeError}</AlertDescription>
            </Alert>
          ) : null}
          <FeeLinesTable lines={lines} totalCents={totalCents} canEdit={canEdit} />
          {settings.computedAt ? <p className="text-xs text-muted-foreground">Calculado em {formatDateTime(settings.computedAt)}.</p> : null}
        </CardContent>
      </Card>
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
