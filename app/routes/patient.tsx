import { Download, History, UserX } from "~/components/icons";
import { RouteErrorBoundary } from "~/components/route-error";
import { ButtonLink } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { recordView } from "~/.server/audit";
import { assertCan, requirePermission } from "~/.server/auth";
import { dispatchIntent } from "~/.server/intent-action";
import { consentHistory } from "~/.server/lgpd-consents";
import { patientRecordIntents } from "~/.server/lgpd-intents";
import { PatientDocuments } from "~/components/patient/patient-documents";
import { PatientSummary } from "~/components/patient/patient-summary";
import { PatientTimeline } from "~/components/patient/patient-timeline";
import { AnonymiseDialog } from "~/components/patient-anonymise-dialog";
import { ConsentDialog } from "~/components/patient-consent-dialog";
import { ConsentsCard } from "~/components/patient-consents";
import { CONSENT_HISTORY_LIMIT, isConsentPurpose } from "~/lib/consents";
import { notFound } from "~/.server/responses";
import { formatDateTime, todayIsoInClinic } from "~/lib/dates";
import { CachedElement, cacheKeyOf } from "~/lib/markup-cache";
import { parseId } from "~/lib/list-params";
import { can } from "~/lib/permissions";
import { getPatientRecord, parseTimelineCursor, patientRecordView } from "~/models/patient-record.server";
import { connectionStatus } from "~/.server/google";
import { routeUrl } from "~/.server/route-url";
import type { Route } from "./+types/patient";

export const handle = { title: "Paciente", subtitle: "Prontuário: cadastro, histórico e documentos" };
export const meta: Route.MetaFunction = ({ data }) => [{ title: `${data?.patient.name ?? "Paciente"} · Sinapse` }];

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requirePermission(request, "patients", "view");
  const id = parseId(params.id) ?? notFound("Paciente não encontrado.");
  const url = routeUrl(request);
  const rawCursor = url.searchParams.get("ate");
  const cursor = parseTimelineCursor(rawCursor);
  const record = patientRecordView(id, cursor) ?? notFound("Paciente não encontrado.");
  const { patient } = record;
  // ?consentimento=PURPOSE: the consent dialog (admins and staff).
  const consentPurpose = url.searchParams.get("consentimento");
  if (consentPurpose !== null) assertCan(user, "patients", "edit");
  if (consentPurpose !== null && !isConsentPurpose(consentPurpose)) notFound("Consentimento não encontrado.");
  // ?dialog=anonimizar: the erasure request's confirmation (admins).
  const anonymiseDialog = url.searchParams.get("dialog") === "anonimizar";
  if (anonymiseDialog) assertCan(user, "patients", "delete");
  const anonymized = patient.anonymizedAt !== null;
  recordView(request, user, "patient", id, cursor ? { timeline: rawCursor } : undefined);
  return {
    pageTitle: patient.name,
    patient,
    counts: record.counts,
    timeline: record.timeline,
    documents: can(user, "files", "view") ? record.documents : [],
    fromTop: !cursor,
    consents: record.consents,
    consentDialog: consentPurpose && isConsentPurpose(consentPurpose) ? { purpose: consentPurpose, history: consentHistory(id, consentPurpose) } : null,
    lgpd: {
      consents: can(user, "patients", "edit"),
      accessReport: can(user, "audit", "view"),
      export: can(user, "patients", "export"),
      anonymise: can(user, "patients", "delete") && !anonymized,
    },
    anonymiseDialog: anonymiseDialog && !anonymized,
    actions: {
      edit: can(user, "patients", "edit"),
      appointment: can(user, "appointments", "create"),
      surgery: can(user, "surgeries", "create"),
      message: can(user, "communication", "create"),
      upload: can(user, "files", "create"),
      drive: can(user, "googleDrive", "create") && connectionStatus().connected,
    },
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requirePermission(request, "patients", "view");
  const id = parseId(params.id) ?? notFound("Paciente não encontrado.");
  if (!getPatientRecord(id)) notFound("Paciente não encontrado.");
  return dispatchIntent(request, user, { back: `/patients/${id}`, notFoundMessage: "Paciente não encontrado.", intents: patientRecordIntents(id) });
}

export default function PatientPage({ loaderData, actionData }: Route.ComponentProps) {
  const { patient, counts, timeline, fromTop, actions, documents } = loaderData;
  const failed = actionData && "intent" in actionData ? actionData : undefined;

  return (
    <div className="space-y-4">
      {/* The record's head and consents, kept per patient, day (the age) and rights (ADR 0025). */}
      <CachedElement
        as="div"
        id="patient-head"
        className="space-y-4"
        cacheKey={cacheKeyOf(["patient-head", todayIsoInClinic(), actions, loaderData.lgpd.consents], patient, loaderData.consents)}
      >
        <PatientSummary patient={patient} actions={actions} />

        <ConsentsCard
          consents={loaderData.consents}
          hrefFor={loaderData.lgpd.consents ? (purpose) => `/patients/${patient.id}?consentimento=${purpose}` : null}
        />
      </CachedElement>
      {patient.anonymizedAt ? (
        <p className="rounded-md border bg-muted/40 p-3 text-sm" role="note">
          Dados de identificação removidos a pedido do paciente em {formatDateTime(patient.anonymizedAt)} (LGPD). O prontuário e os
          registros financeiros são mantidos pelo prazo legal.
        </p>
      ) : null}
      {loaderData.lgpd.accessReport || loaderData.lgpd.export || loaderData.lgpd.anonymise ? (
        <nav aria-label="Direitos do titular (LGPD)" className="flex flex-wrap gap-2">
          {loaderData.lgpd.accessReport ? (
            <ButtonLink to={`/patients/${patient.id}/acessos`} variant="outline" size="sm">
              <History aria-hidden="true" />
              Relatório de acessos
            </ButtonLink>
          ) : null}
          {loaderData.lgpd.export ? (
            <ButtonLink to={`/patients/${patient.id}/export.zip`} reloadDocument variant="outline" size="sm">
              <Download aria-hidden="true" />
              Exportar dados (LGPD)
            </ButtonLink>
          ) : null}
          {loaderData.lgpd.anonymise ? (
            <ButtonLink to={`/patients/${patient.id}?dialog=anonimizar`} preventScrollReset variant="outline" size="sm">
              <UserX aria-hidden="true" />
              Anonimizar paciente
            </ButtonLink>
          ) : null}
        </nav>
      ) : null}
      {loaderData.anonymiseDialog ? (
        <AnonymiseDialog
          patientName={patient.name}
          closeTo={`/patients/${patient.id}`}
          lastResult={failed?.intent === "anonymise" ? failed.result : undefined}
        />
      ) : null}
      {loaderData.consentDialog ? (
        <ConsentDialog
          key={loaderData.consentDialog.purpose}
          purpose={loaderData.consentDialog.purpose}
          history={loaderData.consentDialog.history}
          historyLimit={CONSENT_HISTORY_LIMIT}
          closeTo={`/patients/${patient.id}`}
          lastResult={failed?.intent === "record-consent" ? failed.result : undefined}
        />
      ) : null}

      {patient.medicalHistory ? (
        <Card>
          <CardHeader>
            <CardTitle as="h2">Histórico médico</CardTitle>
          </CardHeader>
          <CardContent>
            <p className="text-sm whitespace-pre-line">{patient.medicalHistory}</p>
          </CardContent>
        </Card>
      ) : null}

      <PatientDocuments documents={documents} total={counts.document} patientId={patient.id} drive={actions.drive} />

      <PatientTimeline patientId={patient.id} counts={counts} timeline={timeline} fromTop={fromTop} />
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
