import { Form } from "react-router";
import { RemoveLink } from "~/components/row-actions";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Select } from "~/components/ui/select";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { Textarea } from "~/components/ui/textarea";
import type { Route } from "../../routes/+types/pipeline-opme";

/* The sections of /pipeline/:id/opme: its items and its quotes (plain POST forms, removals asked in the URL). */

type LoaderData = Route.ComponentProps["loaderData"];
/** The field errors of the form that was posted, by field name (null: another form, or none). */
export type OpmeErrors = Record<string, string[] | null | undefined> | null;

export function OpmeFieldError({ id, errors }: { id: string; errors: string[] | null | undefined }) {
  return errors?.length ? (
    <p id={id} className="text-sm text-destructive">
      {errors.join(" ")}
    </p>
  ) : null;
}

/** The items of the surgery's OPME request, with 'Remover' (asks first: `?removerItem=`) and the add form for editors. */
export function OpmeItemsSection({ loaderData, errors, self }: { loaderData: LoaderData; errors: OpmeErrors; self: string }) {
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
                    <RemoveLink to={`${self}?removerItem=${item.id}`} subject={item.description} />
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
            <OpmeFieldError id="item-description-error" errors={errors?.description} />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="item-quantity">Quantidade</Label>
            <Input id="item-quantity" name="quantity" type="number" min={1} max={9999} step={1} defaultValue={1} required aria-describedby="item-quantity-error" />
            <OpmeFieldError id="item-quantity-error" errors={errors?.quantity} />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="item-anvisa">Registro ANVISA (opcional)</Label>
            <Input id="item-anvisa" name="anvisaRegistration" inputMode="numeric" maxLength={30} aria-describedby="item-anvisa-error" />
            <OpmeFieldError id="item-anvisa-error" errors={errors?.anvisaRegistration} />
          </div>
          <Button type="submit">Adicionar item</Button>
        </Form>
      ) : null}
    </section>
  );
}

/** The suppliers' quotes, with 'Remover' (`?removerCotacao=`) and, once there are items, the form registering a quote's prices. */
export function OpmeQuotesSection({ loaderData, errors, self }: { loaderData: LoaderData; errors: OpmeErrors; self: string }) {
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
                <RemoveLink to={`${self}?removerCotacao=${quote.id}`} subject={`cotação de ${quote.supplierName}`} className="block" />
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
              <OpmeFieldError id="quote-supplier-error" errors={errors?.supplierId} />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="quote-valid">Válida até</Label>
              <Input id="quote-valid" name="validUntil" type="date" required aria-describedby="quote-valid-error" />
              <OpmeFieldError id="quote-valid-error" errors={errors?.validUntil} />
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
                <OpmeFieldError id={`quote-price-${item.id}-error`} errors={errors?.[`prices[${i}].price`]} />
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
