import { ArrowLeft, ShieldAlert, ShieldCheck } from "~/components/icons";
import { Form } from "react-router";
import { Link } from "~/components/ui/link";
import { useBusy } from "~/lib/use-busy";
import { DataTable, useHrefWithParams } from "~/components/data-table";
import { ExportLink } from "~/components/export-link";
import { RouteErrorBoundary } from "~/components/route-error";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Button, ButtonLink } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Select } from "~/components/ui/select";
import { requirePermission } from "~/.server/auth";
import { dispatchIntent, intent } from "~/.server/intent-action";
import { routeUrl } from "~/.server/route-url";
import { formatDateTime } from "~/lib/dates";
import { listUrl, parseListState } from "~/lib/list-params";
import { AUDIT_ACTIONS, AUDIT_ACTION_LABELS, AUDIT_LIST, type AuditActionName } from "~/lib/lists";
import { useToastEffect } from "~/lib/use-toast-effect";
import { checkChain, lastChainCheck, listAudit } from "~/models/audit.server";
import type { Route } from "./+types/audit";

export const handle = { title: "Auditoria", subtitle: "Quem fez o quê, quando e de onde" };
export const meta: Route.MetaFunction = () => [{ title: "Auditoria · Sinapse" }];

export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "audit", "view");
  const url = routeUrl(request);
  const params = parseListState(url, AUDIT_LIST);
  return { ...listAudit(params), params, chain: lastChainCheck(), listHref: listUrl(url, AUDIT_LIST) };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, "audit", "view");
  return dispatchIntent(request, user, {
    back: listUrl(routeUrl(request), AUDIT_LIST),
    intents: {
      verify: intent({
        permission: ["audit", "view"],
        run: ({ user }) => checkChain(user.id),
        success: "Verificação da trilha concluída",
      }),
    },
  });
}

/** A stored `changes` as one line of text (React escapes it: a stored payload renders inert). */
function changesText(changes: string | null) {
  if (!changes) return "-";
  return changes.length > 160 ? `${changes.slice(0, 160)}…` : changes;
}

export default function AuditPage({ loaderData, actionData }: Route.ComponentProps) {
  const { rows, total, pageSize, params, chain, listHref } = loaderData;
  useToastEffect(actionData?.toast);
  const hrefWith = useHrefWithParams();
  const verifying = useBusy("verify");
  const filters = params.filters;
  const active = Object.values(filters).some((value) => value);

  return (
    <div className="space-y-4">
      <Link to="/settings" className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
        <ArrowLeft className="size-4" aria-hidden /> Configurações
      </Link>

      {chain === null ? (
        <Alert variant="info" icon={ShieldCheck}>
          <AlertTitle>Trilha ainda não verificada</AlertTitle>
          <AlertDescription>Verifique a cadeia de hashes para confirmar que nenhum registro foi alterado ou removido.</AlertDescription>
        </Alert>
      ) : chain.intact ? (
        <Alert variant="success" icon={ShieldCheck}>
          <AlertTitle>Trilha íntegra</AlertTitle>
          <AlertDescription>
            {chain.entries.toLocaleString("pt-BR")} registros conferidos em {formatDateTime(chain.checkedAt)}.
          </AlertDescription>
        </Alert>
      ) : (
        <Alert variant="destructive" icon={ShieldAlert}>
          <AlertTitle>Trilha rompida no registro #{chain.brokenId}</AlertTitle>
          <AlertDescription>
            {chain.reason}. Verificada em {formatDateTime(chain.checkedAt)}; os {chain.entries.toLocaleString("pt-BR")} registros
            anteriores conferem.
          </AlertDescription>
        </Alert>
      )}

      <div className="flex flex-wrap items-end justify-between gap-3">
        <Form method="get" className="flex flex-wrap items-end gap-3" aria-label="Filtros da auditoria">
          <div className="grid gap-1.5">
            <Label htmlFor="audit-user" className="text-xs text-muted-foreground">Usuário (e-mail)</Label>
            <Input id="audit-user" name="user" type="email" defaultValue={filters.user ?? ""} className="w-56" />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="audit-entity" className="text-xs text-muted-foreground">Entidade</Label>
            <Input id="audit-entity" name="entity" defaultValue={filters.entity ?? ""} placeholder="patient" className="w-36" />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="audit-action" className="text-xs text-muted-foreground">Ação</Label>
            <Select id="audit-action" name="action" defaultValue={filters.action ?? ""} wrapperClassName="w-48">
              <option value="">Todas as ações</option>
              {AUDIT_ACTIONS.map((a) => (
                <option key={a} value={a}>
                  {AUDIT_ACTION_LABELS[a]}
                </option>
              ))}
            </Select>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="audit-from" className="text-xs text-muted-foreground">De</Label>
            <Input id="audit-from" name="from" type="date" defaultValue={filters.from ?? ""} className="w-40" />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="audit-to" className="text-xs text-muted-foreground">Até</Label>
            <Input id="audit-to" name="to" type="date" defaultValue={filters.to ?? ""} className="w-40" />
          </div>
          <Button type="submit" variant="outline">Filtrar</Button>
          {active ? (
            <ButtonLink to="/settings/audit" variant="ghost">
              Limpar filtros
            </ButtonLink>
          ) : null}
        </Form>
        <div className="flex flex-wrap gap-2">
          <Form method="post">
            <input type="hidden" name="intent" value="verify" />
            <Button type="submit" variant="outline" disabled={verifying}>
              {verifying ? "Verificando..." : "Verificar integridade"}
            </Button>
          </Form>
          <ExportLink listHref={listHref} />
        </div>
      </div>

      <DataTable
        caption="Registros de auditoria"
        rows={rows}
        total={total}
        page={loaderData.page}
        keyset={loaderData}
        pageSize={pageSize}
        getRowKey={(row) => row.id}
        emptyText="Nenhum registro de auditoria encontrado"
        keepRows={null}
        columns={[
          { key: "id", header: "#", className: "tabular-nums", cell: (row) => row.id },
          { key: "when", header: "Quando", className: "whitespace-nowrap", cell: (row) => formatDateTime(row.createdAt) },
          {
            key: "who",
            header: "Quem",
            cell: (row) => (row.userId === null ? "-" : (row.userName ?? row.userEmail ?? `Usuário #${row.userId}`)),
          },
          { key: "action", header: "Ação", cell: (row) => AUDIT_ACTION_LABELS[row.action as AuditActionName] ?? row.action },
          {
            key: "entity",
            header: "Entidade",
            // A link to this entity's entries: the trail narrowed in one step (and the table's
            // scrollable region always holds something to focus).
            cell: (row) => (
              <Link
                to={hrefWith({ entity: row.entity, page: null, after: null, before: null })}
                className="underline-offset-4 hover:underline"
                title={`Somente registros de ${row.entity}`}
              >
                {row.entityId ? `${row.entity} #${row.entityId}` : row.entity}
              </Link>
            ),
          },
          { key: "ip", header: "IP", className: "whitespace-nowrap", cell: (row) => row.ip ?? "-" },
          {
            key: "changes",
            header: "Detalhes",
            className: "max-w-md break-all font-mono text-xs",
            cell: (row) => changesText(row.changes),
          },
        ]}
      />
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
