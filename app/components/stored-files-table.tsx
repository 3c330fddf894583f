import { Download, FileText } from "~/components/icons";
import type { ReactNode } from "react";
import { DataTable, type DataTableColumn } from "~/components/data-table";
import { ButtonLink } from "~/components/ui/button";
import { type DateInput, formatDateTime } from "~/lib/dates";
import { formatFileSize } from "~/lib/text";

/** One stored file as the list shows it. */
export interface StoredFile {
  name: string;
  /** A line under the name (the uploader's note). */
  note?: string | null;
  uploadedAt: DateInput;
  sizeBytes: number;
  /** The download link (a plain document request); null when the file itself is not kept. */
  downloadHref: string | null;
}

/**
 * A page of stored files (/files, /financeiro/importar-honorarios): when each was sent, its name,
 * the screen's own columns, its size, and a download button (plus the screen's other actions).
 * Paging and sorting are the kit's keyset links (the model's `keysetPage`), like every list.
 */
export function StoredFilesTable<Row extends { id: number }>({
  caption,
  emptyText,
  list,
  sort,
  file,
  icon = false,
  columns = [],
  trailing = [],
  actions,
  keepRows,
}: {
  caption: string;
  emptyText: string;
  /** The model's page: rows, total, cursors. */
  list: { rows: Row[]; total: number; page: number; pageSize: number; next: string | null; prev: string | null; totalCapped: boolean };
  /** The applied order; `sort.key` is the upload time's sort key. */
  sort: { key: string; dir: "asc" | "desc" };
  file: (row: Row) => StoredFile;
  /** A file icon before each name. */
  icon?: boolean;
  /** The screen's columns between the name and the size. */
  columns?: DataTableColumn<Row>[];
  /** The screen's columns after the size. */
  trailing?: DataTableColumn<Row>[];
  /** More buttons after 'Baixar' (e.g. 'Excluir'). */
  actions?: (row: Row) => ReactNode;
  /** What the screen's columns and actions read besides the row and the URL: its rows' markup is then kept (`DataTable`). */
  keepRows?: unknown;
}) {
  return (
    <DataTable
      caption={caption}
      rows={list.rows}
      total={list.total}
      page={list.page}
      keyset={list}
      pageSize={list.pageSize}
      sort={sort}
      getRowKey={(row) => row.id}
      emptyText={emptyText}
      keepRows={keepRows}
      columns={[
        { key: sort.key, header: "Enviado em", sortKey: sort.key, className: "whitespace-nowrap tabular-nums", cell: (row) => formatDateTime(file(row).uploadedAt) },
        { key: "name", header: "Arquivo", className: "font-medium whitespace-normal break-all", cell: (row) => <FileName file={file(row)} icon={icon} /> },
        ...columns,
        { key: "size", header: "Tamanho", className: "whitespace-nowrap tabular-nums", cell: (row) => formatFileSize(file(row).sizeBytes) },
        ...trailing,
        {
          key: "actions",
          header: <span className="sr-only">Ações</span>,
          className: "w-px whitespace-nowrap",
          cell: (row) => {
            const { name, downloadHref } = file(row);
            const download = downloadHref ? (
              <ButtonLink to={downloadHref} reloadDocument variant="ghost" size="icon" aria-label={`Baixar ${name}`} title="Baixar">
                <Download aria-hidden />
              </ButtonLink>
            ) : null;
            return actions ? (
              <span className="flex gap-1">
                {download}
                {actions(row)}
              </span>
            ) : (
              download
            );
          },
        },
      ]}
    />
  );
}

function FileName({ file, icon }: { file: StoredFile; icon: boolean }) {
  if (!icon && !file.note) return file.name;
  return (
    <span className="inline-flex items-start gap-1.5">
      {icon ? <FileText aria-hidden className="mt-0.5 size-4 shrink-0 text-muted-foreground" /> : null}
      <span>
        {file.name}
        {file.note ? <span className="block text-xs font-normal break-words text-muted-foreground">{file.note}</span> : null}
      </span>
    </span>
  );
}
