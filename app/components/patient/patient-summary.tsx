import { CalendarPlus, MessageSquare, Pencil, Scissors, Upload } from "~/components/icons";
import type { ReactNode } from "react";
import { ButtonLink } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { formatDate, formatDateTime, formatIsoDate, todayIsoInClinic } from "~/lib/dates";
import { formatCpf, formatPhone } from "~/lib/documents";
import type { getPatientRecord } from "~/models/patient-record.server";

/** What the signed-in user may start from the record (the quick actions' links). */
export interface PatientActions {
  edit: boolean;
  appointment: boolean;
  surgery: boolean;
  message: boolean;
  upload: boolean;
  drive: boolean;
}

function ageOn(dateOfBirth: string, today: string): number {
  const [y, m, d] = dateOfBirth.split("-").map(Number);
  const [ty, tm, td] = today.split("-").map(Number);
  return ty - y - (tm < m || (tm === m && td < d) ? 1 : 0);
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className="break-words">{children || "-"}</dd>
    </div>
  );
}

/** Links that open the existing dialogs with this patient already chosen; saving comes back here. */
function quickActions(patientId: number, actions: PatientActions) {
  const here = `/patients/${patientId}`;
  const list: { label: string; href: string; icon: typeof CalendarPlus }[] = [];
  if (actions.appointment) {
    const query = new URLSearchParams({ dialog: "new", picker: "patient", patientId: String(patientId), status: "scheduled", returnTo: here });
    list.push({ label: "Agendar consulta", href: `/appointments?${query}`, icon: CalendarPlus });
  }
  if (actions.surgery) {
    const query = new URLSearchParams({ dialog: "new", picker: "patient", patientId: String(patientId), surgeryStatus: "scheduled", currentStage: "aguarda_docs" });
    list.push({ label: "Agendar cirurgia", href: `/surgeries?${query}`, icon: Scissors });
  }
  if (actions.message) {
    const query = new URLSearchParams({ dialog: "send", patientId: String(patientId) });
    list.push({ label: "Enviar mensagem", href: `/comunicacao?${query}`, icon: MessageSquare });
  }
  if (actions.upload) {
    const query = new URLSearchParams({ dialog: "upload", patientId: String(patientId), returnTo: here });
    list.push({ label: "Enviar documento", href: `/files?${query}`, icon: Upload });
  }
  if (actions.edit) list.push({ label: "Editar cadastro", href: `/patients?edit=${patientId}`, icon: Pencil });
  return list;
}

/** The record's head: when it was registered and changed, the quick actions, identification and insurance. */
export function PatientSummary({ patient, actions }: { patient: NonNullable<ReturnType<typeof getPatientRecord>>; actions: PatientActions }) {
  const today = todayIsoInClinic();
  return (
    <>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          {/* The page's heading (the shell's h1) is the patient's name. */}
          <p className="text-sm text-muted-foreground">
            Cadastrado em {formatDate(patient.createdAt)} · última alteração em {formatDateTime(patient.updatedAt)}
          </p>
        </div>
        <nav aria-label="Ações rápidas" className="flex flex-wrap gap-2">
          {quickActions(patient.id, actions).map(({ label, href, icon: Icon }) => (
            <ButtonLink key={label} to={href} variant="outline" size="sm">
              <Icon aria-hidden="true" />
              {label}
            </ButtonLink>
          ))}
        </nav>
      </div>

      <div className="grid gap-4 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle as="h2">Identificação e contato</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid gap-4 text-sm sm:grid-cols-2">
              <Fact label="CPF">{patient.cpf ? formatCpf(patient.cpf) : null}</Fact>
              <Fact label="Data de nascimento">
                {patient.dateOfBirth ? `${formatIsoDate(patient.dateOfBirth)} (${ageOn(patient.dateOfBirth, today)} anos)` : null}
              </Fact>
              <Fact label="Telefone">{patient.phone ? formatPhone(patient.phone) : null}</Fact>
              <Fact label="E-mail">{patient.email}</Fact>
              <Fact label="Endereço">{patient.address}</Fact>
              <Fact label="Encaminhado por">{patient.referrerName}</Fact>
            </dl>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle as="h2">Convênio e consentimento</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid gap-4 text-sm">
              <Fact label="Convênio">{patient.insurance}</Fact>
              <Fact label="Número da carteirinha">{patient.insuranceCardNumber}</Fact>
              <Fact label="WhatsApp">
                {patient.whatsappOptIn
                  ? `Autorizado${patient.whatsappOptInAt ? ` em ${formatDateTime(patient.whatsappOptInAt)}` : ""}`
                  : "Não autorizado"}
              </Fact>
            </dl>
          </CardContent>
        </Card>
      </div>
    </>
  );
}
