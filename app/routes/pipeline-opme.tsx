import { Form, Link } from "react-router";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { RouteErrorBoundary } from "~/components/route-error";
import { Badge } from "~/components/ui/badge";
import { Button, ButtonLink } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Select } from "~/components/ui/select";
import { Table, TableBody, TableCell, TableFooter, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { Textarea } from "~/components/ui/textarea";
import { requirePermission } from "~/.server/auth";
import { dispatchIntent, intent } from "~/.server/intent-action";
import { notFound } from "~/.server/responses";
import { formatDateTime, todayIsoInClinic } from "~/lib/dates";
import { parseId } from "~/lib/list-params";
import { formatBRL } from "~/lib/money";
import { OPME_MIN_SUPPLIERS, OPME_REASON_MAX, opmeBadgeText } from "~/lib/opme";
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
  const url = new URL(request.url);
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

type LoaderData = Route.ComponentProps["loaderData"];
type Errors = Record<string, string[] | null | undefined> | null;

function FieldError({ id, errors }: { id: string; errors: string[] | null | undefined }) {
  return errors?.length ? (
    <p id={id} className="text-sm text-destructive">
      {errors.join(" ")}
    </p>
  ) : null;
}

export default function OpmePage({ loaderData, actionData }: Route.ComponentProps) {
  const { surgery, opme, canEdit, removingItem, removingQuote } = loaderData;
  useToastEffect(actionData?.toast);
  const errorsOf = (name: string): Errors => (actionData?.intent === name ? ((actionData.result?.error as Errors) ?? null) : null);
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

      <ItemsSection loaderData={loaderData} errors={errorsOf("add-item")} self={self} />
      <QuotesSection loaderData={loaderData} errors={errorsOf("add-quote")} self={self} />
      <ComparisonSection loaderData={loaderData} errors={errorsOf("choose")} />

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

function ItemsSection({ loaderData, errors, self }: { loaderData: LoaderData; errors: Errors; self: string }) {
  const { opme, canEdit } = loaderData;
  return (
    <section aria-labelledby="items-title" className="space-y-3">
      <h2 id="items-title" className="text-lg font-semibold">
        Itens
      </h2>
      {opme.items.length === 0 ? (
        <p className="text-sm text-muted-foreground">Nenhum item na solicitação de OPME.</p>
      ) : (
        <Table>
          <caption className="sr-only">Itens da OPME</caption>
          <TableHeader>
            <TableRow>
              <TableHead>Descrição</TableHead>
              <TableHead className="text-right">Quantidade</TableHead>
              <TableHead>Registro ANVISA</TableHead>
              {canEdit ? <TableHead className="w-24">Ações</TableHead> : null}
            </TableRow>
          </TableHeader>
          <TableBody>
            {opme.items.map((item) => (
              <TableRow key={item.id}>
                <TableCell className="font-medium">{item.description}</TableCell>
                <TableCell className="text-right tabular-nums">{item.quantity}</TableCell>
                <TableCell className="font-mono">{item.anvisaRegistration ?? "-"}</TableCell>
                {canEdit ? (
                  <TableCell>
                    <Link to={`${self}?removerItem=${item.id}`} preventScrollReset className="text-destructive underline underline-offset-4">
                      Remover<span className="sr-only"> {item.description}</span>
                    </Link>
                  </TableCell>
                ) : null}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {canEdit ? (
        <Form method="post" className="grid gap-3 rounded-md border p-3 sm:grid-cols-[1fr_8rem_12rem_auto] sm:items-end" aria-label="Adicionar item">
          <input type="hidden" name="intent" value="add-item" />
          <div className="grid gap-1.5">
            <Label htmlFor="item-description">Descrição do item</Label>
            <Input id="item-description" name="description" required maxLength={200} aria-invalid={errors?.description ? true : undefined} aria-describedby="item-description-error" />
            <FieldError id="item-description-error" errors={errors?.description} />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="item-quantity">Quantidade</Label>
            <Input id="item-quantity" name="quantity" type="number" min={1} max={9999} step={1} defaultValue={1} required aria-describedby="item-quantity-error" />
            <FieldError id="item-quantity-error" errors={errors?.quantity} />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="item-anvisa">Registro ANVISA (opcional)</Label>
            <Input id="item-anvisa" name="anvisaRegistration" inputMode="numeric" maxLength={30} aria-describedby="item-anvisa-error" />
            <FieldError id="item-anvisa-error" errors={errors?.anvisaRegistration} />
          </div>
          <Button type="submit">Adicionar item</Button>
        </Form>
      ) : null}
    </section>
  );
}

function QuotesSection({ loaderData, errors, self }: { loaderData: LoaderData; errors: Errors; self: string }) {
  const { opme, canEdit, suppliers, today } = loaderData;
  return (
    <section aria-labelledby="quotes-title" className="space-y-3">
      <h2 id="quotes-title" className="text-lg font-semibold">
        Cotações
      </h2>
      {opme.quotes.length === 0 ? (
        <p className="text-sm text-muted-foreground">Nenhuma cotação registrada.</p>
      ) : (
        <ul className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
          {opme.quotes.map((quote) => (
            <li key={quote.id} className="space-y-1 rounded-md border p-3 text-sm">
              <p className="font-medium">{quote.supplierName}</p>
              <p className={quote.validUntil < today ? "text-destructive" : "text-muted-foreground"}>
                Válida até {quote.validUntilText}
                {quote.validUntil < today ? " (vencida)" : ""}
              </p>
              {quote.notes ? <p className="whitespace-pre-line">{quote.notes}</p> : null}
              {opme.request?.chosenQuoteId === quote.id ? <Badge variant="success">Escolhida</Badge> : null}
              {canEdit ? (
                <Link to={`${self}?removerCotacao=${quote.id}`} preventScrollReset className="block text-destructive underline underline-offset-4">
                  Remover<span className="sr-only"> cotação de {quote.supplierName}</span>
                </Link>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {canEdit && opme.items.length > 0 ? (
        <Form method="post" className="space-y-3 rounded-md border p-3" aria-label="Registrar cotação">
          <input type="hidden" name="intent" value="add-quote" />
          <div className="grid gap-3 sm:grid-cols-2">
            <div className="grid gap-1.5">
              <Label htmlFor="quote-supplier">Fornecedor</Label>
              <Select id="quote-supplier" name="supplierId" required defaultValue="" aria-describedby="quote-supplier-error">
                <option value="" disabled>
                  Escolha o fornecedor
                </option>
                {suppliers.map((supplier) => (
                  <option key={supplier.id} value={supplier.id}>
                    {supplier.name}
                  </option>
                ))}
              </Select>
              <FieldError id="quote-supplier-error" errors={errors?.supplierId} />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="quote-valid">Válida até</Label>
              <Input id="quote-valid" name="validUntil" type="date" required aria-describedby="quote-valid-error" />
              <FieldError id="quote-valid-error" errors={errors?.validUntil} />
            </div>
          </div>
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-medium">Preço unitário por item (R$)</legend>
            {opme.items.map((item, i) => (
              <div key={item.id} className="grid gap-1 sm:grid-cols-[1fr_12rem] sm:items-center">
                <input type="hidden" name={`prices[${i}].itemId`} value={item.id} />
                <Label htmlFor={`quote-price-${item.id}`} className="font-normal">
                  {item.description} ({item.quantity} un.)
                </Label>
                <Input id={`quote-price-${item.id}`} name={`prices[${i}].price`} inputMode="decimal" placeholder="0,00" required aria-describedby={`quote-price-${item.id}-error`} />
                <FieldError id={`quote-price-${item.id}-error`} errors={errors?.[`prices[${i}].price`]} />
              </div>
            ))}
          </fieldset>
          <div className="grid gap-1.5">
            <Label htmlFor="quote-notes">Observações (opcional)</Label>
            <Textarea id="quote-notes" name="notes" rows={2} maxLength={500} />
          </div>
          <Button type="submit">Registrar cotação</Button>
        </Form>
      ) : null}
    </section>
  );
}

function ComparisonSection({ loaderData, errors }: { loaderData: LoaderData; errors: Errors }) {
  const { opme, canEdit } = loaderData;
  if (opme.quotes.length === 0 || opme.items.length === 0) return null;
  const { rows, totals, lowestTotal } = opme.comparison;
  const chosen = opme.quotes.find((quote) => quote.id === opme.request?.chosenQuoteId) ?? null;
  return (
    <section aria-labelledby="comparison-title" className="space-y-3">
      <h2 id="comparison-title" className="text-lg font-semibold">
        Comparação
      </h2>
      <div className="overflow-x-auto">
        <Table>
          <caption className="sr-only">Comparação das cotações por item; o menor preço de cada item está marcado</caption>
          <TableHeader>
            <TableRow>
              <TableHead>Item</TableHead>
              {opme.quotes.map((quote) => (
                <TableHead key={quote.id} className="text-right">
                  {quote.supplierName}
                </TableHead>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((row, r) => (
              <TableRow key={row.itemId}>
                <TableCell className="font-medium">
                  {opme.items[r].description} ({opme.items[r].quantity} un.)
                </TableCell>
                {row.prices.map((price, q) => {
                  const lowest = row.lowestQuoteIds.includes(opme.quotes[q].id);
                  return (
                    <TableCell key={opme.quotes[q].id} className={lowest ? "text-right font-semibold tabular-nums" : "text-right tabular-nums"}>
                      {price === null ? "-" : formatBRL(price)}
                      {lowest ? (
                        <Badge variant="success" className="ml-2">
                          Menor preço
                        </Badge>
                      ) : null}
                    </TableCell>
                  );
                })}
              </TableRow>
            ))}
          </TableBody>
          <TableFooter>
            <TableRow>
              <TableCell>Total</TableCell>
              {totals.map((total, q) => (
                <TableCell key={opme.quotes[q].id} className="text-right font-semibold tabular-nums">
                  {total === null ? "Incompleta" : formatBRL(total)}
                  {total !== null && total === lowestTotal ? (
                    <Badge variant="success" className="ml-2">
                      Menor total
                    </Badge>
                  ) : null}
                </TableCell>
              ))}
            </TableRow>
          </TableFooter>
        </Table>
      </div>
      {chosen ? (
        <div className="rounded-md border p-3 text-sm">
          <p className="font-medium">Escolhida: {chosen.supplierName}</p>
          <p className="whitespace-pre-line text-muted-foreground">{opme.request?.choiceReason}</p>
        </div>
      ) : null}
      {canEdit ? (
        <Form method="post" className="grid gap-3 rounded-md border p-3" aria-label="Escolher cotação">
          <input type="hidden" name="intent" value="choose" />
          <div className="grid gap-1.5 sm:max-w-sm">
            <Label htmlFor="choose-quote">Cotação escolhida</Label>
            <Select id="choose-quote" name="quoteId" required defaultValue={opme.request?.chosenQuoteId ?? ""} aria-describedby="choose-quote-error">
              <option value="" disabled>
                Escolha a cotação
              </option>
              {opme.quotes.map((quote) => (
                <option key={quote.id} value={quote.id}>
                  {quote.supplierName} (até {quote.validUntilText})
                </option>
              ))}
            </Select>
            <FieldError id="choose-quote-error" errors={errors?.quoteId} />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="choose-reason">Motivo da escolha</Label>
            <Textarea id="choose-reason" name="reason" rows={3} required maxLength={OPME_REASON_MAX} aria-describedby="choose-reason-error" />
            <FieldError id="choose-reason-error" errors={errors?.reason} />
          </div>
          <div>
            <Button type="submit">Escolher cotação</Button>
          </div>
        </Form>
      ) : null}
      <p className="text-xs text-muted-foreground">
        <ButtonLink to="/master-data/suppliers" variant="link" className="h-auto p-0 text-xs">
          Fornecedores em Cadastros
        </ButtonLink>
      </p>
    </section>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
