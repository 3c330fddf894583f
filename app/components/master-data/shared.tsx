import type { SubmissionResult } from "@conform-to/react";
import { Upload } from "~/components/icons";
import type { ReactNode } from "react";
import { DeleteDialog, deleteErrorOf } from "~/components/delete-dialog";
import { ListToolbar } from "~/components/list-toolbar";
import { Badge } from "~/components/ui/badge";
import { ButtonLink } from "~/components/ui/button";
import type { Route } from "../../routes/+types/master-data";

type LoaderData = Route.ComponentProps["loaderData"];
export type TabData<Tab extends LoaderData["data"]["tab"]> = Extract<LoaderData["data"], { tab: Tab }>;
export type Shared = Omit<LoaderData, "data">;
export type ActionData = Route.ComponentProps["actionData"];

/** The form state the action sent back for this dialog's intent (create or update), if any. */
export function lastResultFor(actionData: ActionData, editing: boolean): SubmissionResult<string[]> | undefined {
  return actionData && "intent" in actionData && actionData.intent === (editing ? "update" : "create") ? actionData.result : undefined;
}

export function ActiveBadge({ active }: { active: boolean }) {
  return <Badge variant={active ? "success" : "secondary"}>{active ? "Ativo" : "Inativo"}</Badge>;
}

/** Search box, 'Importar CSV', 'Exportar CSV' and 'Novo …', each only for who may use it. */
export function TabToolbar({
  shared,
  search,
  createLabel,
  hrefWith,
}: {
  shared: Shared;
  search: { placeholder: string; label: string };
  createLabel: string;
  hrefWith: (changes: Record<string, string | null>) => string;
}) {
  const path = shared.closeTo.split("?")[0];
  return (
    <div className="space-y-2">
      <ListToolbar
        search={search}
        listHref={shared.closeTo}
        canExport={shared.canExport}
        create={shared.permissions.create ? { label: createLabel, href: hrefWith({ dialog: "new", edit: null, delete: null }) } : null}
      />
      {shared.permissions.create ? (
        <div className="flex justify-end">
          <ButtonLink to={`${path}/import`} variant="outline" size="sm">
            <Upload aria-hidden />
            Importar CSV
          </ButtonLink>
        </div>
      ) : null}
    </div>
  );
}

/** The confirmation 'Tem certeza que deseja excluir este pagador?', or the refusal when it is in use. */
export function TabDeleteDialog({
  deleting,
  title,
  question,
  closeTo,
  actionData,
}: {
  deleting: { id: number; name: string; refusal: string | null } | null;
  title: string;
  question: ReactNode;
  closeTo: string;
  actionData: ActionData;
}) {
  if (!deleting) return null;
  return (
    <DeleteDialog
      title={title}
      message={
        <>
          {question} <strong>{deleting.name}</strong> será removido permanentemente.
        </>
      }
      id={deleting.id}
      closeTo={closeTo}
      refusal={deleting.refusal}
      error={deleteErrorOf(actionData as Parameters<typeof deleteErrorOf>[0])}
    />
  );
}
