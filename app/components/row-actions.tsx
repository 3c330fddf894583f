import { Pencil, Trash2 } from "lucide-react";
import { ButtonLink } from "~/components/ui/button";

/**
 * The row icons, defined once per page (the app layout renders this) and referenced by every row
 * with `<use>`: a list of 25 rows carries two icon drawings instead of fifty.
 */
export function RowActionSymbols() {
  return (
    <svg aria-hidden="true" className="hidden">
      <symbol id="icon-edit" viewBox="0 0 24 24">
        <Pencil />
      </symbol>
      <symbol id="icon-delete" viewBox="0 0 24 24">
        <Trash2 />
      </symbol>
    </svg>
  );
}

function RowIcon({ name, className }: { name: "edit" | "delete"; className?: string }) {
  return (
    <svg aria-hidden="true" className={className ? `size-4 ${className}` : "size-4"}>
      <use href={`#icon-${name}`} />
    </svg>
  );
}
import type { ParamChanges } from "~/lib/url";

export interface RowRights {
  edit: boolean;
  delete: boolean;
}

/**
 * A row's edit and delete links (`?edit=ID`, `?delete=ID`), each shown only when the server would
 * accept it. `subject` completes the accessible names: 'Editar {subject}', 'Excluir {subject}'.
 */
export function RowActions({
  id,
  subject,
  rights,
  hrefWith,
}: {
  id: number;
  subject: string;
  rights: RowRights;
  hrefWith: (changes: ParamChanges) => string;
}) {
  return (
    <div className="flex justify-end gap-1">
      {rights.edit ? (
        <ButtonLink to={hrefWith({ edit: id, dialog: null, delete: null })} variant="ghost" size="icon" aria-label={`Editar ${subject}`} preventScrollReset>
          <RowIcon name="edit" />
        </ButtonLink>
      ) : null}
      {rights.delete ? (
        <ButtonLink to={hrefWith({ delete: id, dialog: null, edit: null })} variant="ghost" size="icon" aria-label={`Excluir ${subject}`} preventScrollReset>
          <RowIcon name="delete" className="text-destructive" />
        </ButtonLink>
      ) : null}
    </div>
  );
}

/** The actions column of a DataTable, or nothing when the user may neither edit nor delete. */
export function actionsColumn<Row extends { id: number }>(
  rights: RowRights,
  hrefWith: (changes: ParamChanges) => string,
  subject: (row: Row) => string,
  header = "Ações",
) {
  if (!rights.edit && !rights.delete) return [];
  return [
    {
      key: "actions",
      header,
      className: "w-24 text-right",
      cell: (row: Row) => <RowActions id={row.id} subject={subject(row)} rights={rights} hrefWith={hrefWith} />,
    },
  ];
}
