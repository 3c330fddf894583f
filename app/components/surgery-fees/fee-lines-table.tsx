import { Form } from "react-router";
import { EmptyState } from "~/components/empty-state";
import { Badge } from "~/components/ui/badge";
import { Button, ButtonLink } from "~/components/ui/button";
import { Table, TableBody, TableCell, TableFooter, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { formatDateTime } from "~/lib/dates";
import { FEE_LINE_ROLE_LABELS, labelFor } from "~/lib/enums";
import { feeLineBasis } from "~/lib/fees/engine";
import { formatBRL } from "~/lib/money";

export interface FeeLineView {
  id: number;
  doctorName: string;
  role: "principal" | "auxiliar" | "anestesista";
  position: number | null;
  code: string | null;
  porte: string | null;
  anestheticPorte: number | null;
  porteValueCents: number | null;
  procedurePercent: number | null;
  sharePercent: number | null;
  accommodationFactor: number | null;
  urgencyPercent: number | null;
  contralateral: boolean;
  computedCents: number | null;
  amountCents: number;
  overrideReason: string | null;
  overriddenAt: Date | null;
  overriddenByName: string | null;
}

function basisOf(line: FeeLineView): string {
  if (line.porte === null || line.porteValueCents === null || line.procedurePercent === null) return "Valor lançado sem memória de cálculo";
  return feeLineBasis(
    {
      porte: line.porte,
      anestheticPorte: line.anestheticPorte,
      porteValueCents: line.porteValueCents,
      procedurePercent: line.procedurePercent,
      sharePercent: line.sharePercent,
      accommodationFactor: line.accommodationFactor === 2 ? 2 : 1,
      urgencyPercent: line.urgencyPercent ?? 0,
      contralateral: line.contralateral,
    },
    formatBRL,
  );
}

/** The fee lines of a surgery: who, for what, how it was computed, and what is paid (with any override and its reason). */
export function FeeLinesTable({ lines, totalCents, canEdit }: { lines: FeeLineView[]; totalCents: number; canEdit: boolean }) {
  if (!lines.length) return <EmptyState title="Nenhum honorário calculado" description="Informe procedimentos e equipe e calcule os honorários." />;
  return (
    <Table aria-label="Linhas de honorários">
      <TableHeader>
        <TableRow>
          <TableHead>Profissional</TableHead>
          <TableHead>Função</TableHead>
          <TableHead>Código</TableHead>
          <TableHead>Como foi calculado</TableHead>
          <TableHead className="text-right">Calculado</TableHead>
          <TableHead className="text-right">A pagar</TableHead>
          {canEdit ? <TableHead className="text-right">Ações</TableHead> : null}
        </TableRow>
      </TableHeader>
      <TableBody>
        {lines.map((line) => (
          <TableRow key={line.id}>
            <TableCell className="font-medium">{line.doctorName}</TableCell>
            <TableCell className="whitespace-nowrap">
              {line.role === "auxiliar" && line.position ? `${line.position}º auxiliar` : labelFor(FEE_LINE_ROLE_LABELS, line.role)}
            </TableCell>
            <TableCell className="whitespace-nowrap">{line.code ?? "-"}</TableCell>
            <TableCell className="text-xs">{basisOf(line)}</TableCell>
            <TableCell className="whitespace-nowrap text-right tabular-nums">{line.computedCents === null ? "-" : formatBRL(line.computedCents)}</TableCell>
            <TableCell className="whitespace-nowrap text-right tabular-nums">
              {formatBRL(line.amountCents)}
              {line.overrideReason ? (
                <div className="text-xs text-muted-foreground">
                  <Badge variant="secondary">Ajustado</Badge> {line.overrideReason}
                  {line.overriddenByName ? ` — ${line.overriddenByName}, ${formatDateTime(line.overriddenAt)}` : ""}
                </div>
              ) : null}
            </TableCell>
            {canEdit ? (
              <TableCell className="whitespace-nowrap text-right">
                <ButtonLink to={`?ajustar=${line.id}`} variant="ghost" size="sm" preventScrollReset aria-label={`Ajustar honorário de ${line.doctorName}`}>
                  Ajustar
                </ButtonLink>
                {line.overrideReason && line.computedCents !== null ? (
                  <Form method="post" className="inline" preventScrollReset>
                    <input type="hidden" name="intent" value="restore-line" />
                    <input type="hidden" name="lineId" value={line.id} />
                    <Button type="submit" variant="ghost" size="sm" aria-label={`Restaurar valor calculado de ${line.doctorName}`}>
                      Restaurar
                    </Button>
                  </Form>
                ) : null}
              </TableCell>
            ) : null}
          </TableRow>
        ))}
      </TableBody>
      <TableFooter>
        <TableRow>
          <TableCell colSpan={5} className="font-medium">
            Total
          </TableCell>
          <TableCell className="text-right font-medium tabular-nums">{formatBRL(totalCents)}</TableCell>
          {canEdit ? <TableCell /> : null}
        </TableRow>
      </TableFooter>
    </Table>
  );
}
