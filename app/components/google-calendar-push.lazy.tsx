/**
 * /google-calendar's "Envio da agenda" card: where appointments and surgeries go (off, one calendar
 * for the clinic, one per doctor) and how the patient is named in the events. The administrator
 * edits it; everyone else reads it. Plain POST forms: everything works without JavaScript.
 * Loaded on demand (Conform stays out of the page's first load): see google-calendar-push.tsx.
 */
import { type SubmissionResult, getFormProps, useForm } from "@conform-to/react";
import { Form } from "react-router";
import { useBusy } from "~/lib/use-busy";
import { type SelectOption, SelectField } from "~/components/form-field";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Label } from "~/components/ui/label";
import { Select } from "~/components/ui/select";
import { GOOGLE_NAME_PRIVACY, GOOGLE_NAME_PRIVACY_LABELS, GOOGLE_SYNC_MODES, GOOGLE_SYNC_MODE_LABELS, type GoogleNamePrivacy, type GoogleSyncMode } from "~/lib/enums";
import { useLazyValidation } from "~/lib/use-lazy-validation";

export interface CalendarPushView {
  syncMode: GoogleSyncMode;
  clinicCalendarId: string | null;
  namePrivacy: GoogleNamePrivacy;
  waiting: number;
  failed: number;
  doctors: { doctorId: number; name: string; calendarId: string | null }[];
  doctorLimit: number;
}


const MODE_OPTIONS: SelectOption[] = GOOGLE_SYNC_MODES.map((value) => ({ value, label: GOOGLE_SYNC_MODE_LABELS[value] }));
const PRIVACY_OPTIONS: SelectOption[] = GOOGLE_NAME_PRIVACY.map((value) => ({ value, label: GOOGLE_NAME_PRIVACY_LABELS[value] }));

function Backlog({ waiting, failed }: Pick<CalendarPushView, "waiting" | "failed">) {
  return (
    <p className="text-sm text-muted-foreground" data-testid="calendar-backlog">
      {waiting === 0 ? "Nenhuma alteração aguardando envio." : `${waiting.toLocaleString("pt-BR")} ${waiting === 1 ? "alteração aguardando" : "alterações aguardando"} envio.`}
      {failed > 0 ? ` ${failed.toLocaleString("pt-BR")} ${failed === 1 ? "envio falhou" : "envios falharam"} após várias tentativas.` : ""}
    </p>
  );
}

export function CalendarPushCard({
  push,
  calendars,
  canEdit,
  lastResult,
}: {
  push: CalendarPushView;
  calendars: { id: string; summary: string; writable: boolean }[];
  canEdit: boolean;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const busy = useBusy("calendar-settings");
  const [form, fields] = useForm({
    id: "calendar-settings",
    lastResult,
    defaultValue: { syncMode: push.syncMode, clinicCalendarId: push.clinicCalendarId ?? "", namePrivacy: push.namePrivacy },
    ...useLazyValidation(() => import("~/validation/google"), (m) => m.googleCalendarSettingsSchema, { shouldValidate: "onSubmit", shouldRevalidate: "onInput" }),
  });
  const calendarOptions: SelectOption[] = calendars.filter((calendar) => calendar.writable).map((calendar) => ({ value: calendar.id, label: calendar.summary }));
  const nameOf = (id: string | null) => (id ? (calendars.find((calendar) => calendar.id === id)?.summary ?? id) : "-");
  return (
    <Card data-calendar-push>
      <CardHeader>
        <CardTitle as="h2">Envio da agenda</CardTitle>
        <CardDescription>
          Consultas e cirurgias agendadas são enviadas ao Google Calendar quando criadas, remarcadas ou canceladas.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {canEdit ? (
          <Form method="post" {...getFormProps(form)} className="grid gap-4 md:grid-cols-3">
            <input type="hidden" name="intent" value="calendar-settings" />
            <SelectField meta={fields.syncMode} label="Enviar para" options={MODE_OPTIONS} />
            <SelectField
              meta={fields.clinicCalendarId}
              label="Calendário da clínica"
              options={calendarOptions}
              placeholder="Selecione..."
              hint="Usado quando o envio é para um calendário da clínica."
            />
            <SelectField meta={fields.namePrivacy} label="Paciente nos eventos" options={PRIVACY_OPTIONS} />
            <div className="md:col-span-3">
              <Button type="submit" disabled={busy}>
                {busy ? "Salvando..." : "Salvar envio"}
              </Button>
            </div>
          </Form>
        ) : (
          <dl className="grid gap-2 text-sm md:grid-cols-3">
            <div>
              <dt className="font-medium">Enviar para</dt>
              <dd>{GOOGLE_SYNC_MODE_LABELS[push.syncMode]}</dd>
            </div>
            <div>
              <dt className="font-medium">Calendário da clínica</dt>
              <dd>{nameOf(push.clinicCalendarId)}</dd>
            </div>
            <div>
              <dt className="font-medium">Paciente nos eventos</dt>
              <dd>{GOOGLE_NAME_PRIVACY_LABELS[push.namePrivacy]}</dd>
            </div>
          </dl>
        )}
        <Backlog waiting={push.waiting} failed={push.failed} />
        {push.syncMode === "doctor" ? <DoctorCalendars push={push} options={calendarOptions} nameOf={nameOf} canEdit={canEdit} /> : null}
        <p className="text-xs text-muted-foreground">
          Mudar o destino não apaga nem duplica eventos: cada evento já enviado passa para o novo calendário quando a consulta ou
          cirurgia for alterada de novo.
        </p>
      </CardContent>
    </Card>
  );
}

function DoctorCalendars({
  push,
  options,
  nameOf,
  canEdit,
}: {
  push: CalendarPushView;
  options: SelectOption[];
  nameOf: (id: string | null) => string;
  canEdit: boolean;
}) {
  const busy = useBusy("doctor-calendar");
  return (
    <section aria-labelledby="doctor-calendars-title" className="space-y-2">
      <h3 id="doctor-calendars-title" className="font-semibold">
        Calendário de cada médico
      </h3>
      {push.doctors.length === 0 ? <p className="text-sm text-muted-foreground">Nenhum médico ativo cadastrado.</p> : null}
      <ul className="divide-y rounded-md border">
        {push.doctors.map((doctor) => (
          <li key={doctor.doctorId} className="flex flex-wrap items-end gap-2 p-2">
            <span className="min-w-48 flex-1 text-sm font-medium">{doctor.name}</span>
            {canEdit ? (
              <Form method="post" className="flex flex-wrap items-end gap-2">
                <input type="hidden" name="intent" value="doctor-calendar" />
                <input type="hidden" name="doctorId" value={doctor.doctorId} />
                <Label htmlFor={`doctor-calendar-${doctor.doctorId}`} className="sr-only">
                  Calendário de {doctor.name}
                </Label>
                <Select id={`doctor-calendar-${doctor.doctorId}`} name="calendarId" defaultValue={doctor.calendarId ?? ""}>
                  <option value="">Não enviar</option>
                  {options.map((option) => (
                    <option key={option.value} value={option.value}>
                      {option.label}
                    </option>
                  ))}
                </Select>
                <Button type="submit" variant="outline" size="sm" disabled={busy} aria-label={`Salvar calendário de ${doctor.name}`}>
                  Salvar
                </Button>
              </Form>
            ) : (
              <span className="text-sm">{doctor.calendarId ? nameOf(doctor.calendarId) : "Não enviar"}</span>
            )}
          </li>
        ))}
      </ul>
      {push.doctors.length >= push.doctorLimit ? (
        <p className="text-xs text-muted-foreground">Mostrando os primeiros {push.doctorLimit} médicos ativos.</p>
      ) : null}
    </section>
  );
}
