import { Filter, X } from "~/components/icons";
import { Form } from "react-router";
import { MessageStatusBadge } from "~/components/comms-messages";
import { DataTable } from "~/components/data-table";
import { DefaultSubmitButton, EntityPicker } from "~/components/entity-picker";
import { RouteErrorBoundary } from "~/components/route-error";
import { Button, ButtonLink } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import { Select } from "~/components/ui/select";
import { requirePermission } from "~/.server/auth";
import { routeUrl } from "~/.server/route-url";
import { formatDateTime } from "~/lib/dates";
import { MESSAGE_STATUSES, MESSAGE_STATUS_LABELS } from "~/lib/enums";
import { parseListState } from "~/lib/list-params";
import { MESSAGE_LIST } from "~/lib/lists";
import { patientOptionFromJson } from "~/lib/picker-options";
import { listMessages, templateFilterOptions } from "~/models/message.server";
import { patientPickerOptions } from "~/models/picker-options.server";
import type { Route } from "./+types/communication-messages";

export const handle = { title: "Mensagens", subtitle: "Histórico completo das mensagens aos pacientes" };
export const meta: Route.MetaFunction = () => [{ title: "Mensagens · Sinapse" }];

/** The full message log: newest first, keyset pages, filters by status, patient and template (SPEC §2). */
export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "communication", "view");
  const url = routeUrl(request);
  const state = parseListState(url, MESSAGE_LIST);
  const patientQ = (url.searchParams.get("patientQ") ?? "").slice(0, 100);
  return {
    ...listMessages(state),
    filters: state.filters,
    patientQ,
    patientOptions: patientPickerOptions(patientQ, state.filters.patientId),
    templates: templateFilterOptions(),
    pathname: url.pathname,
    backTo: url.pathname.startsWith("/comunicacao") ? "/comunicacao" : "/communication",
  };
}

export default function MessageLogPage({ loaderData }: Route.ComponentProps) {
  const { rows, total, pageSize, filters, templates, pathname } = loaderData;
  const active = Boolean(filters.status || filters.patientId || filters.templateId);
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <ButtonLink to={loaderData.backTo} variant="outline" size="sm">
          Voltar à comunicação
        </ButtonLink>
      </div>
      <Form method="get" action={pathname} aria-label="Filtros" className="grid items-end gap-3 md:grid-cols-[1fr_12rem_14rem_auto]">
        <DefaultSubmitButton label="Filtrar" />
        <EntityPicker
          name="patient"
          label="Paciente"
          searchParam="patientQ"
          endpoint="/api/patients"
          resultsKey="patients"
          toOption={patientOptionFromJson}
          options={loaderData.patientOptions}
          defaultValue={filters.patientId}
          searchDefault={loaderData.patientQ}
          searchPlaceholder="Todos os pacientes"
        />
        <div className="grid gap-1.5">
          <Label htmlFor="filter-status">Status</Label>
          <Select id="filter-status" name="status" defaultValue={filters.status ?? ""}>
            <option value="">Todos os status</option>
            {MESSAGE_STATUSES.map((status) => (
              <option key={status} value={status}>
                {MESSAGE_STATUS_LABELS[status]}
              </option>
            ))}
          </Select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="filter-template">Template</Label>
          <Select id="filter-template" name="template" defaultValue={filters.templateId ? String(filters.templateId) : ""}>
            <option value="">Todos os templates</option>
            {templates.map((t) => (
              <option key={t.id} value={t.id}>
                {t.title}
              </option>
            ))}
          </Select>
        </div>
        <div className="flex gap-2">
          <Button type="submit" variant="secondary">
            <Filter aria-hidden />
            Filtrar
          </Button>
          {active ? (
            <ButtonLink to={pathname} variant="ghost">
              <X aria-hidden />
              Limpar filtros
            </ButtonLink>
          ) : null}
        </div>
      </Form>
      <DataTable
        caption="Mensagens"
        rows={rows}
        total={total}
        page={loaderData.page}
        keyset={loaderData}
        pageSize={pageSize}
        getRowKey={(row) => row.id}
        emptyText="Nenhuma mensagem encontrada"
        keepRows={null}
        columns={[
          { key: "createdAt", header: "Data", className: "whitespace-nowrap tabular-nums", cell: (row) => formatDateTime(row.createdAt) },
          { key: "patient", header: "Paciente", className: "font-medium", cell: (row) => row.patientName },
          {
            key: "template",
            header: "Template",
            cell: (row) => row.templateTitle ?? (row.direction === "inbound" ? "Resposta do paciente" : "Texto livre"),
          },
          { key: "status", header: "Status", cell: (row) => <MessageStatusBadge status={row.status} direction={row.direction} /> },
          {
            key: "preview",
            header: "Mensagem",
            className: "max-w-md",
            cell: (row) => (
              <>
                <span className="text-sm text-muted-foreground">{row.preview}</span>
                {row.status === "failed" && row.error ? <span className="block text-xs text-destructive">{row.error}</span> : null}
              </>
            ),
          },
        ]}
      />
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
