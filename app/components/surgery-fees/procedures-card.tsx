import { Form } from "react-router";
import { type LastResult, ProcedureForm } from "~/components/surgery-fees/fee-forms";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { ACCESS_ROUTE_LABELS, labelFor } from "~/lib/enums";
import type { surgeryFeeScreen } from "~/models/surgery-fees.server";

/** 'Procedimentos': the surgery's CBHPM procedures; those who edit fees remove them and add more. */
export function ProceduresCard({
  procedures,
  canEdit,
  lastResult,
}: {
  procedures: NonNullable<ReturnType<typeof surgeryFeeScreen>>["procedures"];
  canEdit: boolean;
  /** The refused 'add-procedure' form, shown again. */
  lastResult: LastResult;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Procedimentos</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        {procedures.length ? (
          <Table aria-label="Procedimentos da cirurgia">
            <TableHeader>
              <TableRow>
                <TableHead>Código</TableHead>
                <TableHead>Descrição</TableHead>
                <TableHead>Porte</TableHead>
                <TableHead>Aux.</TableHead>
                <TableHead>Porte anest.</TableHead>
                <TableHead>Via</TableHead>
                {canEdit ? <TableHead className="text-right">Ações</TableHead> : null}
              </TableRow>
            </TableHeader>
            <TableBody>
              {procedures.map((p) => (
                <TableRow key={p.id}>
                  <TableCell className="whitespace-nowrap font-medium">{p.code}</TableCell>
                  <TableCell>{p.description}</TableCell>
                  <TableCell>{p.porte ?? "-"}</TableCell>
                  <TableCell>{p.assistantsCount ?? "-"}</TableCell>
                  <TableCell>{p.anestheticPorte ?? "-"}</TableCell>
                  <TableCell>
                    {labelFor(ACCESS_ROUTE_LABELS, p.accessRoute)}
                    {p.bilateral ? <Badge variant="secondary" className="ml-2">Bilateral</Badge> : null}
                  </TableCell>
                  {canEdit ? (
                    <TableCell className="text-right">
                      <Form method="post" preventScrollReset>
                        <input type="hidden" name="intent" value="remove-procedure" />
                        <input type="hidden" name="procedureId" value={p.id} />
                        <Button type="submit" variant="ghost" size="sm" aria-label={`Remover ${p.code}`}>
                          Remover
                        </Button>
                      </Form>
                    </TableCell>
                  ) : null}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : (
          <p className="text-sm text-muted-foreground">Nenhum procedimento informado.</p>
        )}
        {canEdit ? <ProcedureForm lastResult={lastResult} /> : null}
      </CardContent>
    </Card>
  );
}
