import { patientSearchText } from "../../app/models/patient.server";
import * as schema from "../schema";
import {
  EMAIL_DOMAINS,
  FEMALE_NAMES,
  INSURANCE_WEIGHTS,
  MALE_NAMES,
  MEDICAL_HISTORY,
  NEIGHBORHOODS,
  STREETS,
  SURNAMES,
} from "./catalog";
import { insertRows, minDate, type SeedContext, slug } from "./context";
import type { Staff } from "./doctors";
import { generateCpf, generateMobile } from "./documents";
import { DAY, HOUR } from "./time";

const PATIENT_COUNT = 120;

export interface PatientDraft {
  row: typeof schema.patients.$inferInsert;
  name: string;
  phone: string;
  insurance: string | null;
  /** Index into `surgeons` of the patient's own doctor. */
  doctorIndex: number;
  isNew: boolean;
}

/** The patients and their ids, in the same order; agenda, surgeries and the rest index into both. */
export interface PatientPool {
  patients: PatientDraft[];
  patientIds: number[];
}

/**
 * The patients, built in memory first: the agenda decides who is a new patient
 * (see markNewPatients), and only then are they inserted.
 */
export function draftPatients({ random, nowMs }: SeedContext, { surgeons }: Staff): PatientDraft[] {
  const usedNames = new Set<string>();
  const usedCpfs = new Set<string>();
  const patients: PatientDraft[] = [];
  while (patients.length < PATIENT_COUNT) {
    const female = random.chance(0.52);
    const first = random.pick(female ? FEMALE_NAMES : MALE_NAMES);
    const [s1, s2] = random.sample(SURNAMES, 2);
    const particle = ["Conceição", "Silva", "Assunção", "Rocha"].includes(s1) && random.chance(0.6) ? "da " : "";
    const name = `${first} ${particle}${s1} ${s2}`;
    if (usedNames.has(name)) continue;
    usedNames.add(name);

    let cpf: string | null = null;
    if (random.chance(0.93)) {
      do cpf = generateCpf(random);
      while (usedCpfs.has(cpf));
      usedCpfs.add(cpf);
    }
    const child = random.chance(0.05);
    const birthYear = child ? random.int(2012, 2021) : random.int(1946, 2004);
    const dateOfBirth = `${birthYear}-${String(random.int(1, 12)).padStart(2, "0")}-${String(random.int(1, 28)).padStart(2, "0")}`;
    const area = random.weighted([["11", 80], ["12", 5], ["13", 6], ["19", 5], ["21", 4]] as const);
    const phone = generateMobile(random, area);
    const email = random.chance(0.82)
      ? `${slug(first)}.${slug(s2)}${random.chance(0.4) ? random.int(1, 99) : ""}@${random.pick(EMAIL_DOMAINS)}`
      : null;
    const address = random.chance(0.85)
      ? `${random.pick(STREETS)}, ${random.int(10, 3200)} - ${random.pick(NEIGHBORHOODS)}, São Paulo - SP, 0${random.int(1000, 5899)}-${random.digits(3)}`
      : null;
    const insurance = child && random.chance(0.5) ? "Unimed" : random.weighted(INSURANCE_WEIGHTS);
    const optIn = random.chance(0.65);
    const history = random.chance(0.6)
      ? random.sample(MEDICAL_HISTORY, random.int(1, 2)).join(" ")
      : null;
    // Children see the paediatric neurosurgeon; adults a surgeon of any area.
    const doctorIndex = child ? surgeons.findIndex((d) => d.specialty === "Neurocirurgia Pediátrica") : random.int(0, surgeons.length - 1);
    const createdAt = new Date(nowMs - random.int(60, 900) * DAY - random.int(0, 10) * HOUR);
    patients.push({
      name,
      phone,
      insurance,
      doctorIndex,
      isNew: false,
      row: {
        name,
        cpf,
        dateOfBirth,
        phone,
        email,
        address,
        insurance,
        medicalHistory: history,
        whatsappOptIn: optIn,
        whatsappOptInAt: optIn ? new Date(createdAt.getTime() + random.int(0, 30) * DAY) : null,
        searchText: patientSearchText({ name, cpf, email, phone }),
        createdAt,
        updatedAt: createdAt,
      },
    });
  }
  return patients;
}

/** About a quarter of the patients seen in the agenda window are new: registered shortly before their first visit. */
export function markNewPatients({ random, nowMs }: SeedContext, patients: PatientDraft[], visits: Array<{ patientIndex: number; start: number }>) {
  const firstVisit = new Map<number, number>();
  for (const d of visits) if (!firstVisit.has(d.patientIndex)) firstVisit.set(d.patientIndex, d.start);
  for (const [patientIndex, start] of firstVisit) {
    if (!random.chance(0.28)) continue;
    const p = patients[patientIndex];
    p.isNew = true;
    const createdAt = minDate(start - random.int(2, 12) * DAY - random.int(0, 8) * HOUR, nowMs - HOUR);
    p.row.createdAt = createdAt;
    p.row.updatedAt = createdAt;
    if (p.row.whatsappOptIn) p.row.whatsappOptInAt = createdAt;
  }
}

export function insertPatients({ tx }: SeedContext, patients: PatientDraft[]): PatientPool {
  return { patients, patientIds: insertRows(tx, schema.patients, patients.map((p) => p.row)) };
}
