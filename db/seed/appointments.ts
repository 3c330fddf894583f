import type { AppointmentStatus } from "../../app/lib/enums";
import * as schema from "../schema";
import { busy, insertRows, type Interval, minDate, overlaps, type SeedContext } from "./context";
import type { Staff } from "./doctors";
import type { PatientDraft, PatientPool } from "./patients";
import { addDays, at, DAY, HOUR, isWeekend, MINUTE, weekday } from "./time";

export interface AppointmentDraft {
  patientIndex: number;
  doctorIndex: number;
  start: number;
  end: number;
}

/**
 * Who is taken when. Filled by the agenda and then by the surgeries, so a surgery never
 * lands on its surgeon's clinic hours or on another commitment of its patient.
 */
export interface Occupancy {
  doctorBusy: Map<number, Interval[]>;
  patientBusy: Map<number, Interval[]>;
}

export interface Agenda extends Occupancy {
  /** The planned appointments, by start time. */
  drafts: AppointmentDraft[];
}

/** The agenda: 6 weeks back, 4 weeks ahead, business hours, no double booking. */
export function planAgenda({ random, today }: SeedContext, { surgeons }: Staff, patients: PatientDraft[]): Agenda {
  const drafts: AppointmentDraft[] = [];
  const doctorBusy = new Map<number, Interval[]>();
  const patientBusy = new Map<number, Interval[]>();
  const patientDays = new Map<number, Set<string>>();
  const byDoctor = surgeons.map((_, i) => patients.map((p, pi) => (p.doctorIndex === i ? pi : -1)).filter((pi) => pi >= 0));

  for (let offset = -42; offset <= 28; offset++) {
    const day = addDays(today, offset);
    if (isWeekend(day)) continue;
    const wd = weekday(day);
    surgeons.forEach((doctor, doctorIndex) => {
      if (!doctor.clinicDays.includes(wd)) return;
      const [open, close] = doctor.clinicPeriod === "morning" ? [8 * 60, 12 * 60] : [13 * 60 + 30, 18 * 60];
      let cursor = open;
      while (cursor < close) {
        const duration = random.pick([30, 30, 45, 60]);
        if (cursor + duration > close) break;
        if (!random.chance(0.62)) {
          cursor += random.pick([15, 30]);
          continue;
        }
        const start = at(day, cursor).getTime();
        const end = start + duration * MINUTE;
        // Mostly the doctor's own patients; sometimes anyone free (second opinions, referrals).
        const pool = random.chance(0.8) && byDoctor[doctorIndex].length ? byDoctor[doctorIndex] : patients.map((_, i) => i);
        let chosen = -1;
        for (let attempt = 0; attempt < 25 && chosen < 0; attempt++) {
          const candidate = random.pick(pool);
          if (patientDays.get(candidate)?.has(day)) continue;
          if (overlaps(patientBusy.get(candidate), start, end)) continue;
          chosen = candidate;
        }
        if (chosen >= 0 && !overlaps(doctorBusy.get(doctorIndex), start, end)) {
          drafts.push({ patientIndex: chosen, doctorIndex, start, end });
          busy(doctorBusy, doctorIndex).push({ start, end });
          busy(patientBusy, chosen).push({ start, end });
          if (!patientDays.has(chosen)) patientDays.set(chosen, new Set());
          patientDays.get(chosen)!.add(day);
        }
        cursor += duration;
      }
    });
  }
  drafts.sort((a, b) => a.start - b.start);
  return { drafts, doctorBusy, patientBusy };
}

export type AppointmentRow = typeof schema.appointments.$inferInsert & { startTime: Date; endTime: Date; status: AppointmentStatus; type: string };

/** The appointment rows of the agenda; returned in the order of `agenda.drafts`. */
export function seedAppointments(
  { tx, random, nowMs }: SeedContext,
  { surgeons }: Staff,
  { patients, patientIds }: PatientPool,
  { drafts }: Agenda,
  officeUsers: number[],
): AppointmentRow[] {
  const seenBefore = new Set<number>();
  const appointmentRows = drafts.map((d) => {
    const patient = patients[d.patientIndex];
    const doctor = surgeons[d.doctorIndex];
    const first = patient.isNew && !seenBefore.has(d.patientIndex);
    seenBefore.add(d.patientIndex);
    const type = first
      ? "Primeira consulta"
      : random.weighted([
          ["Retorno", 50],
          ["Pós-operatório", 14],
          ["Avaliação pré-operatória", 12],
          ["Teleconsulta", 10],
          [doctor.area === "coluna" ? "Infiltração" : "Retorno", 5],
        ] as const);
    let status: AppointmentStatus;
    if (d.end <= nowMs) status = random.chance(0.88) ? "completed" : "cancelled";
    else if (d.start <= nowMs) status = "confirmed";
    else if (random.chance(0.05)) status = "cancelled";
    else if (d.start - nowMs < 3 * DAY) status = random.chance(0.7) ? "confirmed" : "scheduled";
    else status = random.chance(0.2) ? "confirmed" : "scheduled";
    const notes = random.weighted([
      [null, 70],
      ["Trazer RM de coluna lombar recente.", 6],
      ["Retorno com resultado de exames.", 8],
      ["Paciente solicitou encaixe por dor intensa.", 4],
      ["Acompanhante virá junto (paciente com dificuldade de locomoção).", 4],
      ["Enviar link da teleconsulta 30 min antes.", type === "Teleconsulta" ? 20 : 0],
    ] as const);
    const createdAt = minDate(d.start - random.int(1, 25) * DAY - random.int(0, 9) * HOUR, nowMs - 10 * MINUTE);
    return {
      patientId: patientIds[d.patientIndex],
      doctorId: doctor.id,
      startTime: new Date(d.start),
      endTime: new Date(d.end),
      status,
      type,
      notes,
      location: type === "Teleconsulta" ? "Teleconsulta (vídeo)" : doctor.location,
      createdBy: random.pick(officeUsers),
      createdAt,
      updatedAt: createdAt,
    } satisfies typeof schema.appointments.$inferInsert;
  });
  insertRows(tx, schema.appointments, appointmentRows);
  return appointmentRows;
}
