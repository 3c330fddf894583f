import type { ReactNode } from "react";
import { Form } from "react-router";
import { Link } from "~/components/ui/link";
import { ImportLineErrors } from "~/components/import-line-errors";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button, ButtonLink } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";

type LineErrors = ReadonlyArray<{ line: number; messages: readonly string[] }>;

/** A column of the preview table: its header and the classes of its header and cells. */
export interface CsvPreviewColumn {
  header: string;
  headClassName?: string;
  cellClassName?: string;
}

/** What the preview shows once every line passed: a heading, the lines as a table, and what 'Confirmar' posts back. */
export interface CsvImportPreview {
  heading: ReactNode;
  /** A line under the heading (e.g. what the file lacks). */
  note?: ReactNode;
  /** The table's accessible name, when the heading is not enough. */
  tableLabel?: string;
  columns: readonly CsvPreviewColumn[];
  rows: ReadonlyArray<readonly ReactNode[]>;
  /** Hidden fields posted again with `intent=apply` (the CSV text itself is always posted). */
  keep?: Record<string, string>;
}

/**
 * The page of a CSV import (master-data tabs, porte tables …): the upload form (`intent=preview`,
 * multipart, works without JavaScript), the refusal message, the refused lines, and — when every
 * line passed — the preview table with 'Confirmar importação' (`intent=apply`, the same text, all
 * lines or none). The route's action validates and answers `{ message, csv, check }`.
 */
export function CsvImportPage<Check extends { errors: LineErrors }>({
  id,
  title,
  help,
  fields,
  backTo,
  result,
  preview,
}: {
  /** Prefix of the element ids (`<id>-file`, `<id>-errors`, `<id>-preview`). */
  id: string;
  title: ReactNode;
  /** The expected columns and rules, above the form. */
  help: ReactNode;
  /** Fields of the upload form before the file (e.g. the edition and band of a table). */
  fields?: ReactNode;
  /** 'Voltar' and 'Cancelar' go here. */
  backTo: string;
  /** The action's answer: its message, the text read, and the check of every line (null before one). */
  result: { message: string | null; csv: string; check: Check | null } | undefined;
  /** What the preview shows, once the check passed every line. */
  preview: (check: Check) => CsvImportPreview;
}) {
  const message = result?.message;
  const errors = result?.check?.errors;
  const ready = result?.check && !result.check.errors.length ? preview(result.check) : null;
  return (
    <div className="max-w-4xl space-y-4">
      <h2 className="text-lg font-semibold">{title}</h2>
      <p className="text-sm text-muted-foreground">{help}</p>
      <Form method="post" encType="multipart/form-data" className="flex flex-wrap items-end gap-3">
        <input type="hidden" name="intent" value="preview" />
        {fields}
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-file`}>Arquivo CSV</Label>
          <input id={`${id}-file`} name="file" type="file" accept=".csv,text/csv" required className="block text-sm" />
        </div>
        <Button type="submit" variant="outline">
          Pré-visualizar
        </Button>
        <ButtonLink to={backTo} variant="ghost">
          Voltar
        </ButtonLink>
      </Form>

      {message ? (
        <Alert variant="destructive">
          <AlertDescription>
            <p role="alert">{message}</p>
          </AlertDescription>
        </Alert>
      ) : null}

      {errors ? <ImportLineErrors id={`${id}-errors`} errors={errors} /> : null}

      {ready ? (
        <section aria-labelledby={`${id}-preview`} className="space-y-3">
          <h3 id={`${id}-preview`} className="font-medium">
            {ready.heading}
          </h3>
          {ready.note ? <p className="text-sm text-muted-foreground">{ready.note}</p> : null}
          <div className="overflow-x-auto rounded-md border">
            <Table aria-label={ready.tableLabel}>
              <TableHeader>
                <TableRow>
                  {ready.columns.map((column) => (
                    <TableHead key={column.header} className={column.headClassName}>
                      {column.header}
                    </TableHead>
                  ))}
                </TableRow>
              </TableHeader>
              <TableBody>
                {ready.rows.map((row, i) => (
                  <TableRow key={i}>
                    {ready.columns.map((column, c) => (
                      <TableCell key={column.header} className={column.cellClassName}>
                        {row[c]}
                      </TableCell>
                    ))}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
          <Form method="post" className="flex gap-2">
            <input type="hidden" name="intent" value="apply" />
            {Object.entries(ready.keep ?? {}).map(([name, value]) => (
              <input key={name} type="hidden" name={name} value={value} />
            ))}
            <textarea name="csv" defaultValue={result?.csv} hidden readOnly aria-hidden />
            <Button type="submit">Confirmar importação</Button>
            <Link to={backTo} className="self-center text-sm underline">
              Cancelar
            </Link>
          </Form>
        </section>
      ) : null}
    </div>
  );
}
