import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form, useSearchParams } from "react-router";
import { FormDialogFooter, UrlDialog } from "~/components/dialog";
import { DefaultSubmitButton, PatientPicker } from "~/components/entity-picker";
import { Field, FormErrors, SelectField, TextareaField } from "~/components/form-field";
import { Input } from "~/components/ui/input";
import { formatDateTime } from "~/lib/dates";
import { ORDER_STATUSES, ORDER_STATUS_LABELS, enumOptions, labelFor } from "~/lib/enums";
import { centsToReaisInput, formatBRL } from "~/lib/money";
import { orderSchema, orderTotalCents } from "~/validation/order";
import type { Route } from "../routes/+types/orders";

type LoaderData = Route.ComponentProps["loaderData"];
const STATUS_OPTIONS = enumOptions(ORDER_STATUSES, ORDER_STATUS_LABELS);
/** Empty item rows offered below the order's items (works without JavaScript: reopen to add more). */
const BLANK_ROWS = 3;
// Not the list's `status` filter: the form has a `status` field of its own.
const LIST_PARAMS = ["q", "page", "sort", "dir", "after", "before"];

/** The create/edit dialog of /orders: type, status, patient, supplier (active only) and the items table. */
export function OrderDialog({
  order,
  form: data,
  closeTo,
  lastResult,
}: {
  order: LoaderData["editing"];
  form: NonNullable<LoaderData["form"]>;
  closeTo: string;
  lastResult: NonNullable<Route.ComponentProps["actionData"]>["result"];
}) {
  const [searchParams] = useSearchParams();
  const items = (order?.items ?? []).map((item) => ({
    description: item.description,
    quantity: String(item.quantity),
    unitPrice: item.unitCents === null ? "" : centsToReaisInput(item.unitCents),
  }));
  const rows = [...items, ...Array.from({ length: BLANK_ROWS }, () => ({ description: "", quantity: "", unitPrice: "" }))];
  const [form, fields] = useForm({
    id: order ? `order-${order.id}` : "order-new",
    lastResult,
    defaultValue: {
      orderType: data.draft.orderType ?? order?.orderType ?? "",
      status: data.draft.status ?? order?.status ?? "pending",
      patientId: data.draft.patientId ?? (order?.patientId ? String(order.patientId) : ""),
      supplierId: data.draft.supplierId ?? (order?.supplierId ? String(order.supplierId) : ""),
      notes: data.draft.notes ?? order?.notes ?? "",
      items: rows,
    },
    constraint: getZodConstraint(orderSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: orderSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const itemFields = fields.items.getFieldList();
  const parsed = parseWithZod(toFormData(form.value), { schema: orderSchema });
  const total = parsed.status === "success" ? orderTotalCents(parsed.value.items) : null;

  return (
    <UrlDialog title={order ? "Editar Pedido" : "Novo Pedido"} closeTo={closeTo} maxWidth="3xl">
      <Form method="post" {...getFormProps(form)} className="space-y-4" preventScrollReset>
        <DefaultSubmitButton />
        <input type="hidden" name="intent" value={order ? "update" : "create"} />
        {order ? <input type="hidden" name="id" value={order.id} /> : null}
        {order ? <input type="hidden" name="edit" value={order.id} /> : <input type="hidden" name="dialog" value="new" />}
        {LIST_PARAMS.flatMap((key) => {
          const value = searchParams.get(key);
          return value ? [<input key={key} type="hidden" name={key} value={value} />] : [];
        })}
        <FormErrors errors={form.errors} id={form.errorId} />
        <div className="grid items-start gap-4 sm:grid-cols-2">
          <Field meta={fields.orderType} label="Tipo do pedido" placeholder="OPME, materiais, exame…" autoComplete="off" autoFocus />
          <SelectField meta={fields.status} label="Status" options={STATUS_OPTIONS} />
          <PatientPicker
            options={data.patientOptions}
            defaultValue={Number(fields.patientId.initialValue) || null}
            searchDefault={data.patientQ}
            searchPlaceholder="Nome ou CPF..."
            errors={fields.patientId.errors}
            errorId={fields.patientId.errorId}
          />
          <SelectField meta={fields.supplierId} label="Fornecedor" options={data.supplierOptions} placeholder="Nenhum" />
        </div>

        <fieldset className="space-y-2">
          <legend className="text-sm font-medium">Itens</legend>
          <div className="overflow-x-auto">
            <table className="w-full text-sm">
              <thead>
                <tr className="text-left text-muted-foreground">
                  <th className="py-1 pr-2 font-normal">Descrição</th>
                  <th className="w-24 py-1 pr-2 font-normal">Quantidade</th>
                  <th className="w-36 py-1 font-normal">Valor unitário (R$)</th>
                </tr>
              </thead>
              <tbody>
                {itemFields.map((item, index) => {
                  const cells = item.getFieldset();
                  const errors = [cells.description.errors, cells.quantity.errors, cells.unitPrice.errors].flat().filter(Boolean);
                  return (
                    <tr key={item.key} className="align-top">
                      <td className="py-1 pr-2">
                        <Input {...getInputProps(cells.description, { type: "text" })} key={cells.description.key} aria-label={`Descrição do item ${index + 1}`} />
                        {errors.length ? (
                          <p className="mt-1 text-xs text-destructive" role="alert">
                            {errors.join(" ")}
                          </p>
                        ) : null}
                      </td>
                      <td className="py-1 pr-2">
                        <Input {...getInputProps(cells.quantity, { type: "text" })} key={cells.quantity.key} inputMode="numeric" aria-label={`Quantidade do item ${index + 1}`} />
                      </td>
                      <td className="py-1">
                        <Input {...getInputProps(cells.unitPrice, { type: "text" })} key={cells.unitPrice.key} inputMode="decimal" placeholder="0,00" aria-label={`Valor unitário do item ${index + 1}`} />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <p className="text-sm" data-testid="order-total">
            Total: {total === null ? (order?.totalCents != null ? formatBRL(order.totalCents) : "—") : formatBRL(total)}
          </p>
          <p className="text-xs text-muted-foreground">Linhas em branco são ignoradas. Para mais itens, salve e abra o pedido de novo.</p>
        </fieldset>

        <TextareaField meta={fields.notes} label="Observações" rows={3} />

        {data.history.length ? (
          <section aria-labelledby="order-history" className="space-y-1 text-sm">
            <h3 id="order-history" className="font-medium">
              Histórico de status
            </h3>
            <ol className="space-y-1">
              {data.history.map((change, i) => (
                <li key={i}>
                  {formatDateTime(change.changedAt)} · {change.fromStatus ? `${labelFor(ORDER_STATUS_LABELS, change.fromStatus)} → ` : "Criado como "}
                  {labelFor(ORDER_STATUS_LABELS, change.toStatus)}
                  {change.changedBy ? ` · ${change.changedBy}` : ""}
                </li>
              ))}
            </ol>
          </section>
        ) : null}
        <FormDialogFooter closeTo={closeTo} submitLabel={order ? "Salvar alterações" : "Criar pedido"} />
      </Form>
    </UrlDialog>
  );
}

/** Conform's current values as form data, to compute the total as the person types. */
function toFormData(value: unknown): FormData {
  const data = new FormData();
  const walk = (prefix: string, v: unknown) => {
    if (Array.isArray(v)) v.forEach((item, i) => walk(`${prefix}[${i}]`, item));
    else if (v && typeof v === "object") for (const [k, inner] of Object.entries(v)) walk(prefix ? `${prefix}.${k}` : k, inner);
    else if (typeof v === "string") data.append(prefix, v);
  };
  walk("", value);
  return data;
}
