import { Trash2 } from "~/components/icons";
import { Form, useLocation } from "react-router";
import { Link } from "~/components/ui/link";
import { DeleteDialog, deleteErrorOf } from "~/components/delete-dialog";
import { DocumentUploadDialog } from "~/components/document-upload-dialog";
import { FilterBar, keptListParams } from "~/components/filter-bar";
import { ListToolbar } from "~/components/list-toolbar";
import { PatientLink } from "~/components/patient-link";
import { RouteErrorBoundary } from "~/components/route-error";
import { StoredFilesTable } from "~/components/stored-files-table";
import { Badge } from "~/components/ui/badge";
import { Button, ButtonLink } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { assertCan, requirePermission } from "~/.server/auth";
import { dispatchIntent, intent } from "~/.server/intent-action";
import { notFound } from "~/.server/responses";
import { routeUrl } from "~/.server/route-url";
import { DOCUMENT_CATEGORIES, DOCUMENT_CATEGORY_LABELS, labelFor } from "~/lib/enums";
import { listUrl, parseId, parseListState, safeReturnTo } from "~/lib/list-params";
import { DOCUMENT_LIST } from "~/lib/lists";
import { can } from "~/lib/permissions";
import { pathWithParams } from "~/lib/url";
import { useToastEffect } from "~/lib/use-toast-effect";
import { deleteDocument, getDocument, listDocuments } from "~/models/document.server";
import { handleUpload, uploadDialog } from "~/models/document-upload.server";
import { getPatient } from "~/models/patient.server";
import type { Route } from "./+types/files";

export const handle = { title: "Arquivos", subtitle: "Documentos dos pacientes: exames, laudos, termos e guias" };
export const meta: Route.MetaFunction = () => [{ title: "Arquivos · Sinapse" }];

const CATEGORY_OPTIONS = DOCUMENT_CATEGORIES.map((value) => ({ value, label: DOCUMENT_CATEGORY_LABELS[value] }));

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "files", "view");
  const url = routeUrl(request);
  const { filters, ...params } = parseListState(url, DOCUMENT_LIST);
  const dialogParam = url.searchParams.get("dialog");
  let upload = null;
  if (dialogParam === "upload") {
    assertCan(user, "files", "create");
    upload = uploadDialog(url);
  }
  let deleting = null;
  if (url.searchParams.has("delete")) {
    assertCan(user, "files", "delete");
    const id = parseId(url.searchParams.get("delete")) ?? notFound("Documento não encontrado.");
    const doc = getDocument(id) ?? notFound("Documento não encontrado.");
    deleting = { id: doc.id, originalName: doc.originalName, patientName: doc.patientName };
  }
  const filterPatient = filters.patientId ? getPatient(filters.patientId) : null;
  return {
    ...listDocuments(params, filters),
    params,
    filters,
    filterPatient: filterPatient ? { id: filterPatient.id, name: filterPatient.name } : null,
    upload,
    deleting,
    returnTo: safeReturnTo(url.searchParams.get("returnTo")),
    closeTo: safeReturnTo(url.searchParams.get("returnTo")) ?? listUrl(url, DOCUMENT_LIST),
    listHref: listUrl(url, DOCUMENT_LIST),
    canUpload: can(user, "files", "create"),
    canDelete: can(user, "files", "delete"),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, "files", "view");
  const url = routeUrl(request);
  const back = safeReturnTo(url.searchParams.get("returnTo")) ?? listUrl(url, DOCUMENT_LIST);
  if (/^multipart\/form-data/i.test(request.headers.get("Content-Type") ?? "")) {
    assertCan(user, "files", "create");
    return handleUpload(request, user.id, back);
  }
  return dispatchIntent(request, user, {
    back,
    notFoundMessage: "Documento não encontrado.",
    intents: {
      delete: intent({
        permission: ["files", "delete"],
        record: true,
        run: ({ user: admin, id }) => deleteDocument(admin.id, id),
        success: "Documento excluído",
        failure: "Não foi possível excluir o documento",
      }),
    },
  });
}

type LoaderData = Route.ComponentProps["loaderData"];

/** The upload period as two date fields (a GET form): documents sent from one day to another. */
function PeriodFilter({ params, filters }: Pick<LoaderData, "params" | "filters">) {
  const { pathname } = useLocation();
  const keep = { ...keptListParams(params, DOCUMENT_LIST), patient: filters.patientId ? String(filters.patientId) : null, category: filters.category ?? null };
  return (
    <Form method="get" action={pathname} aria-label="Período de envio" className="flex flex-wrap items-end gap-3">
      {Object.entries(keep).map(([name, value]) => (value ? <input key={name} type="hidden" name={name} value={value} /> : null))}
      <div className="grid gap-1.5">
        <Label htmlFor="filter-de" className="text-xs text-muted-foreground">
          Enviados de
        </Label>
        <Input id="filter-de" type="date" name="de" defaultValue={filters.from ?? ""} key={`de:${filters.from}`} className="w-40" />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="filter-ate" className="text-xs text-muted-foreground">
          até
        </Label>
        <Input id="filter-ate" type="date" name="ate" defaultValue={filters.to ?? ""} key={`ate:${filters.to}`} className="w-40" />
      </div>
      <Button type="submit" variant="outline">
        Aplicar período
      </Button>
    </Form>
  );
}

export default function FilesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { params, filters, filterPatient, upload, deleting, closeTo, listHref } = loaderData;
  const [listPath, listSearch = ""] = listHref.split("?");
  const hrefWith = (changes: Record<string, string | number | null>) => pathWithParams(listPath, listSearch, changes);
  useToastEffect(actionData?.toast);
  const uploadResult = actionData && "upload" in actionData ? actionData.upload : undefined;

  return (
    <div className="space-y-4">
      <ListToolbar
        search={{ placeholder: "Buscar por arquivo, observação ou paciente...", label: "Buscar documentos" }}
        listHref={listHref}
        canExport={false}
        create={
          loaderData.canUpload
            ? { label: "Enviar documento", href: hrefWith({ dialog: "upload", patientId: filters.patientId ?? null, delete: null }) }
            : null
        }
      />

      <div className="flex flex-wrap items-end gap-x-6 gap-y-3">
        <FilterBar
          label="Filtrar documentos"
          keep={{ ...keptListParams(params, DOCUMENT_LIST), patient: filters.patientId ? String(filters.patientId) : null, de: filters.from ?? null, ate: filters.to ?? null }}
          fields={[{ name: "category", label: "Categoria", all: "Todas as categorias", options: CATEGORY_OPTIONS, value: filters.category ?? null, width: "w-56" }]}
        />
        <PeriodFilter params={params} filters={filters} />
      </div>
      {filterPatient ? (
        <p className="flex flex-wrap items-center gap-2 text-sm">
          Documentos de <PatientLink id={filterPatient.id} name={filterPatient.name} className="font-medium" />
          <Link to={hrefWith({ patient: null, page: null, after: null, before: null })} className="text-muted-foreground underline">
            ver de todos os pacientes
          </Link>
        </p>
      ) : null}

      <StoredFilesTable
        caption="Documentos"
        list={loaderData}
        sort={{ key: params.sort, dir: params.dir }}
        emptyText="Nenhum documento encontrado"
        icon
        keepRows={{ canDelete: loaderData.canDelete, listHref }}
        file={(row) => ({ name: row.originalName, note: row.note, uploadedAt: row.createdAt, sizeBytes: row.sizeBytes, downloadHref: `/files/${row.id}/download` })}
        columns={[
          { key: "patient", header: "Paciente", className: "whitespace-normal", cell: (row) => <PatientLink id={row.patientId} name={row.patientName} /> },
          { key: "category", header: "Categoria", cell: (row) => <Badge variant="outline">{labelFor(DOCUMENT_CATEGORY_LABELS, row.category)}</Badge> },
          { key: "surgery", header: "Cirurgia", className: "whitespace-normal", cell: (row) => row.surgeryType ?? "-" },
        ]}
        actions={(row) =>
          loaderData.canDelete ? (
            <ButtonLink to={hrefWith({ delete: row.id, dialog: null })} preventScrollReset variant="ghost" size="icon" aria-label={`Excluir ${row.originalName}`} title="Excluir">
              <Trash2 aria-hidden />
            </ButtonLink>
          ) : null
        }
      />

      {upload ? <DocumentUploadDialog upload={upload} closeTo={closeTo} returnTo={loaderData.returnTo} result={uploadResult} /> : null}
      {deleting ? (
        <DeleteDialog
          title="Excluir documento"
          message={
            <>
              O documento <strong>{deleting.originalName}</strong> de {deleting.patientName} será removido permanentemente. A exclusão fica
              registrada no log de auditoria.
            </>
          }
          id={deleting.id}
          closeTo={closeTo}
          error={deleteErrorOf(actionData && "intent" in actionData && actionData.intent === "delete" ? actionData : undefined)}
        />
      ) : null}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
