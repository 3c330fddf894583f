import { FileSpreadsheet, FileText } from "~/components/icons";
import { StatementUploadForm } from "~/components/statement-upload-form";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { STATEMENT_COLUMNS, STATEMENT_MAX_MB } from "~/lib/fee-statement";

/** The two uploads of /financeiro/importar-honorarios (admins): a statement file to keep, and a CSV to preview. */
export function StatementUploads() {
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2 text-base">
            <FileText aria-hidden className="size-5" />
            Enviar demonstrativo (PDF ou imagem)
          </CardTitle>
        </CardHeader>
        <CardContent>
          <StatementUploadForm
            intent="upload"
            label="Arquivo do demonstrativo"
            accept="application/pdf,image/jpeg,image/png,image/webp,image/heic"
            submitLabel="Enviar arquivo"
            hint={`PDF, JPG, PNG, WEBP ou HEIC, até ${STATEMENT_MAX_MB} MB. O arquivo fica guardado e listado abaixo.`}
          />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2 text-base">
            <FileSpreadsheet aria-hidden className="size-5" />
            Importar CSV de honorários
          </CardTitle>
        </CardHeader>
        <CardContent className="space-y-3">
          <StatementUploadForm
            intent="preview"
            label="Arquivo CSV do demonstrativo"
            accept=".csv,text/csv"
            submitLabel="Pré-visualizar"
            hint={`CSV até ${STATEMENT_MAX_MB} MB. Você confere cada linha antes de aplicar.`}
          />
          <CsvColumns />
        </CardContent>
      </Card>
    </div>
  );
}

function CsvColumns() {
  return (
    <details className="text-sm">
      <summary className="cursor-pointer font-medium">Colunas do CSV</summary>
      <p className="mt-2 text-muted-foreground">
        A primeira linha é o cabeçalho. Separador ';' (Excel) ou ','; valores como 1.234,56; datas dd/mm/aaaa. Cada linha é ligada à cirurgia pela
        guia; sem guia, pelo paciente, a data da cirurgia e o pagador. Com uma linha errada, nada é aplicado.
      </p>
      <dl className="mt-2 grid gap-x-4 gap-y-1 sm:grid-cols-[auto_1fr]">
        {STATEMENT_COLUMNS.map((column) => (
          <div key={column.key} className="contents">
            <dt className="font-medium">{column.header}</dt>
            <dd className="text-muted-foreground">{column.help}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
