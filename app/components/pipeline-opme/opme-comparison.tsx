import { Form } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button, ButtonLink } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import { Select } from "~/components/ui/select";
import { Table, TableBody, TableCell, TableFooter, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { Textarea } from "~/components/ui/textarea";
import { formatBRL } from "~/lib/money";
import { OPME_REASON_MAX } from "~/lib/opme";
import type { Route } from "../../routes/+types/pipeline-opme";
import { type OpmeErrors, OpmeFieldError } from "./opme-items";

type LoaderData = Route.ComponentProps["loaderData"];

/** The quotes side by side per item (lowest price and total marked), the choice and its reason, and the choose form for editors. */
export function OpmeComparisonSection({ loaderData, errors }: { loaderData: LoaderData; errors: OpmeErrors }) {
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
            <OpmeFieldError id="choose-quote-error" errors={errors?.quoteId} />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="choose-reason">Motivo da escolha</Label>
            <Textarea id="choose-reason" name="reason" rows={3} required maxLength={OPME_REASON_MAX} aria-describedby="choose-reason-error" />
            <OpmeFieldError id="choose-reason-error" errors={errors?.reason} />
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
