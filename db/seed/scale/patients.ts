import type Database from "better-sqlite3";
import { patientSearchText } from "../../../app/models/patient.server";
import { EMAIL_DOMAINS, INSURANCE_WEIGHTS, MEDICAL_HISTORY, NEIGHBORHOODS, STREETS } from "../catalog";
import { slug } from "../context";
import { generateCpf, generateMobile } from "../documents";
import type { Random } from "../random";
import { DAY, HOUR } from "../time";
import { isoOfDay } from "./calendar";
import { SCALE_FEMALE_NAMES, SCALE_MALE_NAMES, SCALE_SURNAMES, SURNAME_PARTICLES, WeightedTable } from "./names";

/** The insurance typed on a patient's record; index 0 … n-1 into this list (null = none typed). */
export const INSURANCES: ReadonlyArray<string | null> = INSURANCE_WEIGHTS.map(([name]) => name);

const AREA_CODES = new WeightedTable<string>([
  ["11", 78],
  ["12", 4],
  ["13", 5],
  ["14", 2],
  ["15", 3],
  ["19", 5],
  ["21", 2],
  ["31", 1],
]);

/** Adult ages at the first visit, in bands: spine and brain patients skew older. */
const ADULT_AGE_BANDS = new WeightedTable<readonly [number, number]>([
  [[18, 29], 9],
  [[30, 44], 22],
  [[45, 59], 31],
  [[60, 74], 27],
  [[75, 92], 11],
]);

const WHATSAPP_SINCE = Date.UTC(2015, 0, 1);

/**
 * The patients, created one by one as the agenda meets them (a patient is registered shortly
 * before the first visit), so ids follow registration order. Only compact per-patient facts
 * stay in memory: when they were last booked, when they were registered, their insurance.
 */
export class PatientBook {
  count = 0;
  /** Day of the patient's latest booking (appointment or surgery), to keep one booking per day. */
  readonly lastDay: Int32Array;
  readonly createdMs: Float64Array;
  /** Index into INSURANCES. */
  readonly insurance: Uint8Array;
  private readonly usedCpfs = new Set<string>();
  private readonly surnames = new WeightedTable(SCALE_SURNAMES);
  private readonly insuranceTable = new WeightedTable(INSURANCE_WEIGHTS.map(([, w], i) => [i, w] as const));
  private readonly insert: Database.Statement;

  constructor(
    conn: Database.Database,
    private readonly random: Random,
    readonly capacity: number,
    /** Ids are assigned as `baseId + index + 1`. */
    readonly baseId: number,
    private readonly nowMs: number,
  ) {
    this.lastDay = new Int32Array(capacity).fill(-1);
    this.createdMs = new Float64Array(capacity);
    this.insurance = new Uint8Array(capacity);
    this.insert = conn.prepare(
      `INSERT INTO patients (id, name, cpf, date_of_birth, phone, email, address, insurance, medical_history,
         whatsapp_opt_in, whatsapp_opt_in_at, search_text, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  idOf(index: number): number {
    return this.baseId + index + 1;
  }

  get full(): boolean {
    return this.count >= this.capacity;
  }

  /** Registers a new patient ahead of a first visit on `day` at `visitMs`; returns the index. */
  create(day: number, visitMs: number, child: boolean): number {
    const random = this.random;
    const index = this.count++;
    const female = random.chance(0.54);
    const first = random.pick(female ? SCALE_FEMALE_NAMES : SCALE_MALE_NAMES);
    const nSurnames = random.weighted([[1, 15], [2, 70], [3, 15]] as const);
    const chosen: string[] = [];
    while (chosen.length < nSurnames) {
      const s = this.surnames.at(random.next());
      if (!chosen.includes(s)) chosen.push(s);
    }
    const name = [first, ...chosen.map((s) => (SURNAME_PARTICLES[s] && random.chance(0.5) ? `${SURNAME_PARTICLES[s]} ${s}` : s))].join(" ");

    let cpf: string | null = null;
    // Most records have a CPF; children's and some old walk-in records do not.
    if (random.chance(child ? 0.6 : 0.94)) {
      do cpf = generateCpf(random);
      while (this.usedCpfs.has(cpf));
      this.usedCpfs.add(cpf);
    }
    const [minAge, maxAge] = child ? ([0, 16] as const) : ADULT_AGE_BANDS.at(random.next());
    const age = random.int(minAge, maxAge);
    const dateOfBirth = isoOfDay(day - age * 365 - random.int(0, 364));
    const phone = generateMobile(random, AREA_CODES.at(random.next()));
    const email = random.chance(age >= 70 ? 0.4 : 0.78)
      ? `${slug(first)}.${slug(chosen[chosen.length - 1])}${random.chance(0.6) ? random.int(1, 999) : ""}@${random.pick(EMAIL_DOMAINS)}`
      : null;
    const address = random.chance(0.82)
      ? `${random.pick(STREETS)}, ${random.int(10, 3200)} - ${random.pick(NEIGHBORHOODS)}, São Paulo - SP, 0${random.int(1000, 5899)}-${random.digits(3)}`
      : null;
    const insuranceIndex = this.insuranceTable.at(random.next());
    const history = random.chance(0.5) ? random.sample(MEDICAL_HISTORY, random.int(1, 2)).join(" ") : null;
    const createdAt = Math.min(visitMs - random.int(1, 20) * DAY - random.int(0, 8) * HOUR, this.nowMs - random.int(1, 48) * HOUR);
    const optIn = random.chance(0.62);
    const optInAt = optIn ? Math.min(Math.max(createdAt, WHATSAPP_SINCE + random.int(0, 400) * DAY), this.nowMs - HOUR) : null;

    this.insert.run(
      this.idOf(index),
      name,
      cpf,
      dateOfBirth,
      phone,
      email,
      address,
      INSURANCES[insuranceIndex],
      history,
      optIn ? 1 : 0,
      optInAt,
      patientSearchText({ name, cpf, email, phone }),
      createdAt,
      Math.max(createdAt, optInAt ?? 0),
    );
    this.createdMs[index] = createdAt;
    this.insurance[index] = insuranceIndex;
    return index;
  }
}
