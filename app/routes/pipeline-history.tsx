import { ArrowLeft } from "~/components/icons";
import { RouteErrorBoundary } from "~/components/route-error";
import { SurgeryFactsCard } from "~/components/surgery-facts-card";
import { Badge } from "~/components/ui/badge";
import { ButtonLink } from "~/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { requirePermission } from "~/.server/auth";
import { notFound } from "~/.server/responses";
import { formatDateTime } from "~/lib/dates";
import { formatDuration } from "~/lib/durations";
import { parseId } from "~/lib/list-params";
import { formatBRL } from "~/lib/money";
import { can } from "~/lib/permissions";
import { stageLabel } from "~/lib/pipeline";
import { stageHistory, timePerStage } from "~/models/pipeline.server";
import { getSurgery } from "~/models/surgery.server";
import type { Route } from "./+types/pipeline-history";

export const handle = { title: "Histórico da cirurgia", subtitle: "Cada etapa do pipeline, quem moveu e quanto tempo ficou" };
export const meta: Route.MetaFunction = () => [{ title: "Histórico da cirurgia · Sinapse" }];

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requirePermission(request, "pipeline", "view");
  const id = parseId(params.id) ?? notFound("Cirurgia não encontrada.");
  const surgery = getSurgery(id) ?? notFound("Cirurgia não encontrada.");
  const history = stageHistory(id);
  return {
    surgery,
    ...history,
    perStage: timePerStage(history.moves),
    canEdit: can(user, "surgeries", "edit"),
  };
}

export default function SurgeryHistoryPage({ loaderData }: Route.ComponentProps) {
  const { surgery, moves, truncated, perStage, canEdit } = loaderData;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap gap-2">
        <ButtonLink to="/pipeline" variant="outline">
          <ArrowLeft aria-hidden />
          Voltar ao pipeline
        </ButtonLink>
        <ButtonLink to={`/surgeries/${surgery.id}/honorarios`} variant="outline">
          Honorários
        </ButtonLink>
        {canEdit ? (
          <ButtonLink to={`/surgeries?edit=${surgery.id}`} variant="outline">
            Editar cirurgia
          </ButtonLink>
        ) : null}
      </div>
      <SurgeryFactsCard
        surgery={surgery}
        after={
          surgery.denialReason ? (
            <div className="mt-3 rounded-md border border-destructive/40 p-3 text-sm">
              <p className="font-medium">Motivo da negativa</p>
              <p className="whitespace-pre-line">{surgery.denialReason}</p>
              <p className="text-muted-foreground">{surgery.denialAppeal ? "A clínica vai recorrer." : "A clínica não vai recorrer."}</p>
            </div>
          ) : null
        }
      >
        <dt className="text-muted-foreground">Médico</dt>
        <dd>{surgery.doctorName}</dd>
        <dt className="text-muted-foreground">Data</dt>
        <dd className="tabular-nums">{formatDateTime(surgery.scheduledDate)}</dd>
        <dt className="text-muted-foreground">Hospital</dt>
        <dd>{surgery.hospital || "-"}</dd>
        <dt className="text-muted-foreground">Pagador</dt>
        <dd>{surgery.payerName || "-"}</dd>
        <dt className="text-muted-foreground">Etapa atual</dt>
        <dd>
          <Badge variant="outline">{stageLabel(surgery.currentStage)}</Badge>
        </dd>
        <dt className="text-muted-foreground">Valor faturado</dt>
        <dd className="tabular-nums">{surgery.billedAmountCents == null ? "-" : formatBRL(surgery.billedAmountCents)}</dd>
      </SurgeryFactsCard>

      <section aria-labelledby="moves-title" className="space-y-2">
        <h2 id="moves-title" className="text-lg font-semibold">
          Movimentações
        </h2>
        {truncated ? <p className="text-sm text-muted-foreground">Mostrando as movimentações mais recentes.</p> : null}
        {moves.length === 0 ? (
          <p className="text-sm text-muted-foreground">Nenhuma movimentação registrada.</p>
        ) : (
          <Table>
            <caption className="sr-only">Movimentações da cirurgia</caption>
            <TableHeader>
              <TableRow>
                <TableHead>Data</TableHead>
                <TableHead>De</TableHead>
                <TableHead>Para</TableHead>
                <TableHead>Por</TableHead>
                <TableHead>Tempo na etapa</TableHead>
                <TableHead>Observação</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {moves.map((move) => (
                <TableRow key={move.id}>
                  <TableCell className="whitespace-nowrap tabular-nums">{formatDateTime(move.createdAt)}</TableCell>
                  <TableCell>{move.fromStage ? stageLabel(move.fromStage) : "Início"}</TableCell>
                  <TableCell className="font-medium">{stageLabel(move.stage)}</TableCell>
                  <TableCell>{move.movedByName ?? "-"}</TableCell>
                  <TableCell className="whitespace-nowrap">
                    {formatDuration(move.durationMs)}
                    {move.current ? " (atual)" : ""}
                  </TableCell>
                  <TableCell className="whitespace-normal">{move.note ?? ""}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </section>

      {perStage.length > 0 ? (
        <section aria-labelledby="per-stage-title" className="space-y-2">
          <h2 id="per-stage-title" className="text-lg font-semibold">
            Tempo em cada etapa
          </h2>
          <ul className="grid gap-2 sm:grid-cols-2 lg:grid-cols-4">
            {perStage.map((entry) => (
              <li key={entry.stage} className="rounded-md border p-3 text-sm">
                <p className="text-muted-foreground">{stageLabel(entry.stage)}</p>
                <p className="font-medium">{formatDuration(entry.durationMs)}</p>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
