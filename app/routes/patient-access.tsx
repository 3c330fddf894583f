import { History } from "~/components/icons";
import { Link } from "~/components/ui/link";
import { EmptyState } from "~/components/empty-state";
import { RouteErrorBoundary } from "~/components/route-error";
import { ButtonLink } from "~/components/ui/button";
import { recordView } from "~/.server/audit";
import { requirePermission } from "~/.server/auth";
import { patientAccessReport } from "~/.server/lgpd-access";
import { notFound } from "~/.server/responses";
import { routeUrl } from "~/.server/route-url";
import { formatDateTime } from "~/lib/dates";
import { parseId } from "~/lib/list-params";
import { AUDIT_ACTION_LABELS, type AuditActionName } from "~/lib/lists";
import { getPatientRecord } from "~/models/patient-record.server";
import type { Route } from "./+types/patient-access";

export const handle = { title: "Relatório de acessos", subtitle: "Quem viu ou alterou os dados do paciente (trilha de auditoria)" };
export const meta: Route.MetaFunction = () => [{ title: "Relatório de acessos · Sinapse" }];

const ENTITY_LABELS: Record<string, string> = {
  patient: "Cadastro",
  patient_referral: "Encaminhamento",
  patient_consent: "Consentimento",
  appointment: "Consulta",
  surgery: "Cirurgia",
  document: "Documento",
  task: "Tarefa",
  message: "Mensagem",
};

export async function loader({ request, params }: Route.LoaderArgs) {
  // LGPD art. 18 access report: read from the audit trail, so admins only (the trail's own permission).
  const user = await requirePermission(request, "audit", "view");
  const id = parseId(params.id) ?? notFound("Paciente não encontrado.");
  const patient = getPatientRecord(id) ?? notFound("Paciente não encontrado.");
  const url = routeUrl(request);
  const before = parseId(url.searchParams.get("antes"));
  const report = patientAccessReport(id, before);
  recordView(request, user, "patient", id, { accessReport: before ?? "first" });
  return { pageTitle: `Acessos: ${patient.name}`, patient: { id: patient.id, name: patient.name }, ...report, fromTop: before === null };
}

export default function PatientAccessPage({ loaderData }: Route.ComponentProps) {
  const { patient, entries, next, fromTop } = loaderData;
  const back = `/patients/${patient.id}`;
  return (
    <div className="space-y-4">
      <p className="text-sm">
        <Link to={back} className="underline underline-offset-4">
          Voltar ao prontuário de {patient.name}
        </Link>
      </p>
      {entries.length === 0 ? (
        <EmptyState icon={History} title="Nenhum acesso registrado" description="Visualizações e alterações dos dados deste paciente aparecem aqui." className="bg-card" />
      ) : (
        <div className="overflow-x-auto rounded-xl border bg-card">
          <table className="w-full text-sm" aria-label="Acessos aos dados do paciente">
            <thead className="border-b text-left text-xs text-muted-foreground">
              <tr>
                <th scope="col" className="p-3 font-medium">Quando</th>
                <th scope="col" className="p-3 font-medium">Quem</th>
                <th scope="col" className="p-3 font-medium">Ação</th>
                <th scope="col" className="p-3 font-medium">Dado</th>
                <th scope="col" className="p-3 font-medium">Origem (IP)</th>
              </tr>
            </thead>
            <tbody className="divide-y">
              {entries.map((entry) => (
                <tr key={entry.id} data-testid="access-entry">
                  <td className="p-3 whitespace-nowrap tabular-nums">{formatDateTime(entry.at)}</td>
                  <td className="p-3">{entry.userName ?? entry.userEmail ?? (entry.userId ? `Usuário #${entry.userId}` : "Sistema")}</td>
                  <td className="p-3">{AUDIT_ACTION_LABELS[entry.action as AuditActionName] ?? entry.action}</td>
                  <td className="p-3">
                    {ENTITY_LABELS[entry.entity] ?? entry.entity}
                    {!entry.entity.startsWith("patient") && entry.entityId ? ` #${entry.entityId}` : ""}
                    {entry.detail ? <span className="block text-xs text-muted-foreground">{entry.detail}</span> : null}
                  </td>
                  <td className="p-3 tabular-nums">{entry.ip ?? "-"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {next || !fromTop ? (
        <nav aria-label="Páginas do relatório" className="flex flex-wrap gap-2">
          {!fromTop ? (
            <ButtonLink to={`/patients/${patient.id}/acessos`} variant="outline" size="sm">
              Mais recentes
            </ButtonLink>
          ) : null}
          {next ? (
            <ButtonLink to={`/patients/${patient.id}/acessos?antes=${next}`} variant="outline" size="sm">
              Mais antigos
            </ButtonLink>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
