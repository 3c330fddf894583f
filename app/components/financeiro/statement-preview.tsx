import { Form } from "react-router";
import { ImportLineErrors } from "~/components/import-line-errors";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { formatIsoDate } from "~/lib/dates";
import { IMPORT_MESSAGES, LINE_OUTCOME_LABELS } from "~/lib/fee-statement";
import { formatBRL } from "~/lib/money";
import type { statementPreview } from "~/models/fee-statement.server";

type Preview = ReturnType<typeof statementPreview>;

/**
 * A fee statement's preview (/financeiro/importar-honorarios?preview=<token>): every line and what
 * applying it does, the refused lines, and 'Aplicar' (only when nothing blocks it) / 'Descartar'
 * posted to `action` (the page).
 */
export function StatementPreview({ preview, action }: { preview: Preview; action: string }) {
  if (preview.status === "expired") {
    return (
      <Alert variant="warning">
        <AlertDescription>{IMPORT_MESSAGES.expired}</AlertDescription>
      </Alert>
    );
  }
  const blocked = preview.status === "duplicate" || Boolean(preview.fatal) || preview.errorCount > 0;
  return (
    <section aria-labelledby="preview-title" className="space-y-3 rounded-lg border p-4">
      <h2 id="preview-title" className="text-base font-semibold">
        Pré-visualização: {preview.originalName}
      </h2>
      {preview.status === "duplicate" || preview.fatal ? (
        <Alert variant="destructive">
          <AlertDescription>
            <p>{preview.status === "duplicate" ? IMPORT_MESSAGES.duplicate : preview.fatal}</p>
          </AlertDescription>
        </Alert>
      ) : null}
      {preview.errorCount ? (
        <Alert variant="destructive">
          <AlertDescription>
            <p className="font-medium">
              Nada será aplicado: {preview.errorCount === 1 ? "1 linha tem erro" : `${preview.errorCount} linhas têm erro`}. Corrija o arquivo e envie de novo.
            </p>
            <div className="mt-2">
              <ImportLineErrors id="preview-errors" errors={preview.errors.map((error) => ({ line: error.line, messages: [error.message] }))} />
            </div>
          </AlertDescription>
        </Alert>
      ) : null}
      {!preview.fatal ? (
        <p className="text-sm">
          {preview.lineCount} {preview.lineCount === 1 ? "linha lida" : "linhas lidas"}, {formatBRL(preview.totalCents)} em {preview.receivables}{" "}
          {preview.receivables === 1 ? "cirurgia" : "cirurgias"}.
          {preview.lineCount > preview.lines.length ? ` Mostrando as primeiras ${preview.lines.length}.` : ""}
        </p>
      ) : null}
      {preview.lines.length ? (
        <div className="overflow-x-auto rounded-md border">
          <Table>
            <caption className="sr-only">Linhas do demonstrativo e o que acontece com cada uma</caption>
            <TableHeader>
              <TableRow>
                <TableHead>Linha</TableHead>
                <TableHead>Guia</TableHead>
                <TableHead>Paciente</TableHead>
                <TableHead>Código</TableHead>
                <TableHead>Data</TableHead>
                <TableHead className="text-right">Valor</TableHead>
                <TableHead>Pagador</TableHead>
                <TableHead>Resultado</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {preview.lines.map((line) => (
                <TableRow key={line.line}>
                  <TableCell className="tabular-nums">{line.line}</TableCell>
                  <TableCell className="tabular-nums">{line.guide ?? "-"}</TableCell>
                  <TableCell className="whitespace-normal">{line.patient}</TableCell>
                  <TableCell className="tabular-nums">{line.code}</TableCell>
                  <TableCell className="tabular-nums">{formatIsoDate(line.date)}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatBRL(line.amountCents)}</TableCell>
                  <TableCell className="whitespace-normal">{line.payer}</TableCell>
                  <TableCell className="whitespace-normal">
                    {line.error ? (
                      <span className="text-destructive">{line.error}</span>
                    ) : line.outcome ? (
                      <span>
                        {LINE_OUTCOME_LABELS[line.outcome]}
                        {line.outcome === "parcial" ? ` (glosa de ${formatBRL(line.differenceCents)})` : null}
                        {line.outcome === "recurso" && line.differenceCents ? ` (perdido: ${formatBRL(line.differenceCents)})` : null}
                        <span className="block text-xs text-muted-foreground">Achada pela {line.matchedBy === "guia" ? "guia" : "paciente, data e pagador"}</span>
                      </span>
                    ) : null}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {!blocked ? (
          <Form method="post" action={action}>
            <input type="hidden" name="intent" value="apply" />
            <input type="hidden" name="token" value={preview.token} />
            <Button type="submit">Aplicar</Button>
          </Form>
        ) : null}
        <Form method="post" action={action}>
          <input type="hidden" name="intent" value="discard" />
          <input type="hidden" name="token" value={preview.token} />
          <Button type="submit" variant="outline">
            Descartar
          </Button>
        </Form>
      </div>
    </section>
  );
}
