import { Link } from "~/components/ui/link";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { OpmeComparisonSection } from "~/components/pipeline-opme/opme-comparison";
import { type OpmeErrors, OpmeItemsSection, OpmeQuotesSection } from "~/components/pipeline-opme/opme-items";
import { RouteErrorBoundary } from "~/components/route-error";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { requirePermission } from "~/.server/auth";
import { dispatchIntent, intent } from "~/.server/intent-action";
import { notFound } from "~/.server/responses";
import { routeUrl } from "~/.server/route-url";
import { formatDateTime, todayIsoInClinic } from "~/lib/dates";
import { parseId } from "~/lib/list-params";
import { OPME_MIN_SUPPLIERS, opmeBadgeText } from "~/lib/opme";
import { can } from "~/lib/permissions";
import { stageLabel } from "~/lib/pipeline";
import { useToastEffect } from "~/lib/use-toast-effect";
import { addOpmeItem, addOpmeQuote, chooseOpmeQuote, getOpme, removeOpmeItem, removeOpmeQuote } from "~/models/opme.server";
import { activeSupplierOptions } from "~/models/supplier.server";
import { getSurgery } from "~/models/surgery.server";
import { opmeChoiceSchema, opmeItemSchema, opmeQuoteSchema, opmeRowSchema } from "~/validation/opme";
import type { Route } from "./+types/pipeline-opme";

export const handle = { title: "OPME da cirurgia", subtitle: "Itens, cotações de fornecedores e a escolha" };
export const meta: Route.MetaFunction = () => [{ title: "OPME da cirurgia · Sinapse" }];

const NOT_FOUND = "Cirurgia não encontrada.";

function surgeryIdOf(params: Route.LoaderArgs["params"]) {
  return parseId(params.id) ?? notFound(NOT_FOUND);
}

/** `?removerItem=ID` and `?removerCotacao=ID` ask before removing (URL state: works without JavaScript). */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requirePermission(request, "pipeline", "view");
  const surgery = getSurgery(surgeryIdOf(params)) ?? notFound(NOT_FOUND);
  const url = routeUrl(request);
  const opme = getOpme(surgery.id);
  const canEdit = can(user, "pipeline", "edit");
  const removingItem = canEdit ? (opme.items.find((item) => item.id === parseId(url.searchParams.get("removerItem"))) ?? null) : null;
  const removingQuote = canEdit ? (opme.quotes.find((quote) => quote.id === parseId(url.searchParams.get("removerCotacao"))) ?? null) : null;
  return {
    surgery: {
      id: surgery.id,
      patientName: surgery.patientName,
      surgeryType: surgery.surgeryType,
      scheduledText: formatDateTime(surgery.scheduledDate),
      currentStage: surgery.currentStage,
      payerName: surgery.payerName,
    },
    opme,
    suppliers: canEdit ? activeSupplierOptions() : [],
    today: todayIsoInClinic(),
    canEdit,
    removingItem,
    removingQuote,
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requirePermission(request, "pipeline", "view");
  const surgeryId = surgeryIdOf(params);
  const permission = ["pipeline", "edit"] as const;
  return dispatchIntent(request, user, {
    back: `/pipeline/${surgeryId}/opme`,
    notFoundMessage: NOT_FOUND,
    intents: {
      "add-item": intent({ permission, schema: opmeItemSchema, run: ({ input }) => addOpmeItem(user.id, surgeryId, input), success: "Item adicionado", failure: "Erro ao salvar item" }),
      "remove-item": intent({ permission, schema: opmeRowSchema, run: ({ input }) => removeOpmeItem(user.id, surgeryId, input.rowId), success: "Item removido", failure: "Erro ao remover item" }),
      "add-quote": intent({ permission, schema: opmeQuoteSchema, run: ({ input }) => addOpmeQuote(user.id, surgeryId, input), success: "Cotação registrada", failure: "Erro ao salvar cotação" }),
      "remove-quote": intent({ permission, schema: opmeRowSchema, run: ({ input }) => removeOpmeQuote(user.id, surgeryId, input.rowId), success: "Cotação removida", failure: "Erro ao remover cotação" }),
      choose: intent({ permission, schema: opmeChoiceSchema, run: ({ input }) => chooseOpmeQuote(user.id, surgeryId, input), success: "Cotação escolhida", failure: "Erro ao escolher cotação" }),
    },
  });
}

export default function OpmePage({ loaderData, actionData }: Route.ComponentProps) {
  const { surgery, opme, canEdit, removingItem, removingQuote } = loaderData;
  useToastEffect(actionData?.toast);
  const errorsOf = (name: string): OpmeErrors => (actionData?.intent === name ? ((actionData.result?.error as OpmeErrors) ?? null) : null);
  const formError = actionData && "result" in actionData ? (actionData.result?.error?.[""] ?? null) : null;
  const self = `/pipeline/${surgery.id}/opme`;
  return (
    <div className="space-y-6">
      <Card>
        <CardHeader>
          <CardTitle as="h2">
            {surgery.surgeryType} de {surgery.patientName}
          </CardTitle>
          <CardDescription>
            {surgery.scheduledText} · {stageLabel(surgery.currentStage)}
            {surgery.payerName ? ` · ${surgery.payerName}` : ""}
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-wrap items-center gap-3 text-sm">
          <Badge variant={opme.suppliers >= OPME_MIN_SUPPLIERS ? "success" : "warning"}>{opmeBadgeText(opme.suppliers)}</Badge>
          <span className="text-muted-foreground">
            {opme.suppliers >= OPME_MIN_SUPPLIERS
              ? "Cotações de três fornecedores diferentes recebidas."
              : "Mover para Aprovado sem três fornecedores diferentes exige uma justificativa."}
          </span>
          <span className="flex gap-3">
            <Link to={`/pipeline/${surgery.id}`} className="text-primary underline underline-offset-4">
              Histórico
            </Link>
            <Link to="/pipeline" className="text-primary underline underline-offset-4">
              Voltar ao pipeline
            </Link>
          </span>
        </CardContent>
      </Card>
      {formError ? <p className="text-sm text-destructive">{formError.join(" ")}</p> : null}

      <OpmeItemsSection loaderData={loaderData} errors={errorsOf("add-item")} self={self} />
      <OpmeQuotesSection loaderData={loaderData} errors={errorsOf("add-quote")} self={self} />
      <OpmeComparisonSection loaderData={loaderData} errors={errorsOf("choose")} />

      {canEdit && removingItem ? (
        <ConfirmDialog
          title="Remover item"
          message={`Remover "${removingItem.description}"? Os preços deste item saem de todas as cotações.`}
          fields={{ intent: "remove-item", rowId: removingItem.id }}
          confirmLabel="Remover"
          closeTo={self}
        />
      ) : null}
      {canEdit && removingQuote ? (
        <ConfirmDialog
          title="Remover cotação"
          message={`Remover a cotação de ${removingQuote.supplierName} (válida até ${removingQuote.validUntilText})?`}
          fields={{ intent: "remove-quote", rowId: removingQuote.id }}
          confirmLabel="Remover"
          closeTo={self}
        />
      ) : null}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
