import { ExternalLink, Plus } from "~/components/icons";
import { DataTable } from "~/components/data-table";
import { GoogleConnectionCard, GoogleDisconnectDialog } from "~/components/google-connection";
import { GoogleFormDialog } from "~/components/google-form-dialog";
import { RouteErrorBoundary } from "~/components/route-error";
import { ButtonLink, buttonVariants } from "~/components/ui/button";
import { assertCan, requirePermission } from "~/.server/auth";
import { GOOGLE_MESSAGES, NOT_CONFIGURED_TEXT, connectionView, disconnectIntent } from "~/.server/google";
import { FORM_CREATE_FAILED, createGoogleForm, listGoogleForms } from "~/.server/google-forms";
import { dispatchIntent, intent } from "~/.server/intent-action";
import { routeUrl } from "~/.server/route-url";
import { formatDateTime } from "~/lib/dates";
import { listUrl, parseListState } from "~/lib/list-params";
import { GOOGLE_FORM_LIST } from "~/lib/lists";
import { can } from "~/lib/permissions";
import { useToastEffect } from "~/lib/use-toast-effect";
import { type GoogleFormInput, googleFormSchema } from "~/validation/google";
import type { Route } from "./+types/google-forms";

export const handle = { title: "Google Forms", subtitle: "Formulários da clínica no Google Forms" };
export const meta: Route.MetaFunction = () => [{ title: "Google Forms · Sinapse" }];

const PAGE = "/google-forms";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "googleForms", "view");
  const url = routeUrl(request);
  const params = parseListState(url, GOOGLE_FORM_LIST);
  const view = { ...connectionView(user), notConfiguredText: NOT_CONFIGURED_TEXT };
  const disconnecting = url.searchParams.has("disconnect") && view.connected;
  if (disconnecting) assertCan(user, "googleCalendar", "edit");
  const creating = url.searchParams.get("dialog") === "new" && view.connected;
  if (creating) assertCan(user, "googleForms", "create");
  return {
    ...listGoogleForms(params),
    params,
    view,
    disconnecting,
    creating,
    listHref: listUrl(url, GOOGLE_FORM_LIST),
    canCreate: can(user, "googleForms", "create"),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, "googleForms", "view");
  return dispatchIntent(request, user, {
    back: PAGE,
    intents: {
      create: intent<GoogleFormInput>({
        permission: ["googleForms", "create"],
        schema: googleFormSchema,
        run: ({ user: author, input }) => createGoogleForm(author.id, input.title),
        success: "Formulário criado",
        failure: FORM_CREATE_FAILED,
      }),
      disconnect: disconnectIntent(GOOGLE_MESSAGES.disconnectFailed, PAGE),
    },
  });
}

export default function GoogleFormsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { view, rows, total, pageSize, params, disconnecting, creating, listHref } = loaderData;
  useToastEffect(actionData?.toast);
  return (
    <div className="space-y-4">
      <GoogleConnectionCard view={view} page={PAGE} refreshHref={listHref} disconnectHref={`${PAGE}?disconnect=1`}>
        {view.connected && loaderData.canCreate ? (
          <div>
            <ButtonLink to={`${PAGE}?dialog=new`} preventScrollReset>
              <Plus aria-hidden />
              Create Form
            </ButtonLink>
          </div>
        ) : null}
      </GoogleConnectionCard>
      <DataTable
        caption="Formulários"
        rows={rows}
        total={total}
        page={loaderData.page}
        keyset={loaderData}
        pageSize={pageSize}
        sort={{ key: params.sort, dir: params.dir }}
        getRowKey={(row) => row.id}
        emptyText="Nenhum formulário criado ainda"
        keepRows={null}
        columns={[
          { key: "title", header: "Título", className: "font-medium whitespace-normal", cell: (row) => row.title },
          { key: "createdAt", header: "Criado em", sortKey: "createdAt", className: "whitespace-nowrap tabular-nums", cell: (row) => formatDateTime(row.createdAt) },
          {
            key: "open",
            header: <span className="sr-only">Ações</span>,
            className: "w-px whitespace-nowrap",
            cell: (row) =>
              row.responderUri ? (
                <a href={row.responderUri} target="_blank" rel="noreferrer noopener" className={buttonVariants({ variant: "outline", size: "sm" })}>
                  <ExternalLink aria-hidden />
                  Open
                  <span className="sr-only"> {row.title}</span>
                </a>
              ) : (
                "-"
              ),
          },
        ]}
      />
      {creating ? <GoogleFormDialog closeTo={listHref} lastResult={actionData?.result} /> : null}
      {disconnecting ? <GoogleDisconnectDialog closeTo={PAGE} /> : null}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
