import { ExternalLink, FileText, Folder, Upload } from "~/components/icons";
import { Form, data, useNavigation } from "react-router";
import { DataTable } from "~/components/data-table";
import { GoogleConnectionCard, GoogleDisconnectDialog } from "~/components/google-connection";
import { PatientLink } from "~/components/patient-link";
import { RouteErrorBoundary } from "~/components/route-error";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { assertCan, requirePermission } from "~/.server/auth";
import { GOOGLE_MESSAGES, NOT_CONFIGURED_TEXT, connectionView, disconnectIntent } from "~/.server/google";
import { DRIVE_ACCEPT_HINT, DRIVE_FOLDER_MIME, handleDriveUpload, listDriveFiles } from "~/.server/google-drive";
import { dispatchIntent } from "~/.server/intent-action";
import { routeUrl } from "~/.server/route-url";
import { redirectWithToast } from "~/.server/toast";
import { ALLOWED_TYPES } from "~/.server/uploads";
import { formatDateTime } from "~/lib/dates";
import { listUrl, parseListState } from "~/lib/list-params";
import { DRIVE_FILE_LIST } from "~/lib/lists";
import { can } from "~/lib/permissions";
import { useToastEffect } from "~/lib/use-toast-effect";
import type { Route } from "./+types/google-drive";

export const handle = { title: "Google Drive", subtitle: "Arquivos enviados ao Google Drive da clínica" };
export const meta: Route.MetaFunction = () => [{ title: "Google Drive · Sinapse" }];

const PAGE = "/google-drive";

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "googleDrive", "view");
  const url = routeUrl(request);
  const params = parseListState(url, DRIVE_FILE_LIST);
  const view = { ...connectionView(user), notConfiguredText: NOT_CONFIGURED_TEXT };
  const disconnecting = url.searchParams.has("disconnect") && view.connected;
  if (disconnecting) assertCan(user, "googleCalendar", "edit");
  const list = listDriveFiles(params);
  return {
    ...list,
    rows: list.rows.map((row) => ({ ...row, isFolder: row.mimeType === DRIVE_FOLDER_MIME })),
    params,
    view,
    disconnecting,
    listHref: listUrl(url, DRIVE_FILE_LIST),
    canUpload: can(user, "googleDrive", "create"),
    accept: Object.keys(ALLOWED_TYPES).join(","),
    acceptHint: DRIVE_ACCEPT_HINT,
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, "googleDrive", "view");
  if (/^multipart\/form-data/i.test(request.headers.get("Content-Type") ?? "")) {
    assertCan(user, "googleDrive", "create");
    const outcome = await handleDriveUpload(request, user.id);
    if (outcome.ok) return redirectWithToast(PAGE, { type: "success", message: GOOGLE_MESSAGES.uploaded });
    return data(
      { intent: "upload" as const, error: outcome.message, toast: { type: "error" as const, message: GOOGLE_MESSAGES.uploadFailed, description: outcome.message } },
      { status: outcome.status },
    );
  }
  return dispatchIntent(request, user, {
    back: PAGE,
    intents: { disconnect: disconnectIntent(GOOGLE_MESSAGES.disconnectFailed, PAGE) },
  });
}

function formatSize(bytes: number | null) {
  if (bytes === null) return "-";
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024)).toLocaleString("pt-BR")} KB`;
  return `${(bytes / (1024 * 1024)).toLocaleString("pt-BR", { maximumFractionDigits: 1 })} MB`;
}

function UploadForm({ accept, hint, error }: { accept: string; hint: string; error: string | null }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formMethod?.toUpperCase() === "POST";
  return (
    <Form method="post" encType="multipart/form-data" className="flex flex-wrap items-end gap-3" aria-label="Enviar arquivo ao Google Drive">
      <div className="grid gap-1.5">
        <Label htmlFor="drive-file">Arquivo</Label>
        <Input id="drive-file" name="file" type="file" accept={accept} required aria-describedby="drive-file-hint" className="w-72" />
        <p id="drive-file-hint" className="text-xs text-muted-foreground">
          {hint}
        </p>
        {error ? (
          <p role="alert" className="text-sm text-destructive">
            {error}
          </p>
        ) : null}
      </div>
      <Button type="submit" disabled={busy}>
        <Upload aria-hidden />
        {busy ? "Enviando..." : "Enviar ao Drive"}
      </Button>
    </Form>
  );
}

export default function GoogleDrivePage({ loaderData, actionData }: Route.ComponentProps) {
  const { view, rows, total, pageSize, params, disconnecting } = loaderData;
  useToastEffect(actionData && "toast" in actionData ? actionData.toast : undefined);
  const uploadError = actionData && "intent" in actionData && actionData.intent === "upload" && "error" in actionData ? actionData.error : null;
  return (
    <div className="space-y-4">
      <GoogleConnectionCard view={view} page={PAGE} refreshHref={loaderData.listHref} disconnectHref={`${PAGE}?disconnect=1`}>
        {view.connected && loaderData.canUpload ? <UploadForm accept={loaderData.accept} hint={loaderData.acceptHint} error={uploadError} /> : null}
      </GoogleConnectionCard>
      <DataTable
        caption="Arquivos no Google Drive"
        rows={rows}
        total={total}
        page={loaderData.page}
        keyset={loaderData}
        pageSize={pageSize}
        sort={{ key: params.sort, dir: params.dir }}
        getRowKey={(row) => row.id}
        emptyText="No files uploaded yet"
        keepRows={null}
        columns={[
          {
            key: "name",
            header: "Arquivo",
            className: "font-medium whitespace-normal break-all",
            cell: (row) => {
              const Icon = row.isFolder ? Folder : FileText;
              return (
                <span className="inline-flex items-start gap-1.5">
                  <Icon aria-hidden className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
                  {row.webViewLink ? (
                    <a href={row.webViewLink} target="_blank" rel="noreferrer noopener" className="underline-offset-4 hover:underline">
                      {row.name}
                      <ExternalLink aria-hidden className="ml-1 inline size-3" />
                      <span className="sr-only"> (abre o Google Drive)</span>
                    </a>
                  ) : (
                    row.name
                  )}
                </span>
              );
            },
          },
          { key: "patient", header: "Paciente", className: "whitespace-normal", cell: (row) => (row.patientId && row.patientName ? <PatientLink id={row.patientId} name={row.patientName} /> : "-") },
          { key: "size", header: "Tamanho", className: "whitespace-nowrap tabular-nums", cell: (row) => formatSize(row.sizeBytes) },
          { key: "uploadedAt", header: "Enviado em", sortKey: "uploadedAt", className: "whitespace-nowrap tabular-nums", cell: (row) => formatDateTime(row.uploadedAt) },
        ]}
      />
      {disconnecting ? <GoogleDisconnectDialog closeTo={PAGE} /> : null}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
