import { Link } from "~/components/ui/link";
import { ButtonLink } from "~/components/ui/button";
import type { ParamChanges } from "~/lib/url";
import { cn } from "~/lib/utils";

export interface RowRights {
  edit: boolean;
  delete: boolean;
}

/**
 * A row's edit and delete links (`?edit=ID`, `?delete=ID`), each shown only when the server would
 * accept it. `subject` completes the accessible names: 'Editar {subject}', 'Excluir {subject}'.
 * Their icons are drawn by CSS (`.ico-*`, app.css): a page shows fifty of them.
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
        <ButtonLink to={hrefWith({ edit: id, dialog: null, delete: null })} variant="ghost" size="icon" className="ico-pencil" aria-label={`Editar ${subject}`} preventScrollReset />
      ) : null}
      {rights.delete ? (
        <ButtonLink to={hrefWith({ delete: id, dialog: null, edit: null })} variant="ghost" size="icon" className="ico-trash-2 ico-destructive" aria-label={`Excluir ${subject}`} preventScrollReset />
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

/** A 'Remover' link to the URL of its confirmation; `subject` completes the accessible name ('Remover {subject}'). */
export function RemoveLink({ to, subject, className }: { to: string; subject: string; className?: string }) {
  return (
    <Link to={to} preventScrollReset className={cn("text-destructive underline underline-offset-4", className)}>
      Remover<span className="sr-only"> {subject}</span>
    </Link>
  );
}
