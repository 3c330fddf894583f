import type Database from "better-sqlite3";
import type { BrazilUf } from "../../../app/lib/documents";
import { doctorSearchText } from "../../../app/models/doctor.server";
import { slug } from "../context";
import { generateLandline, generateMobile } from "../documents";
import type { Random } from "../random";
import { SCALE_FEMALE_NAMES, SCALE_MALE_NAMES, SCALE_SURNAMES, WeightedTable } from "./names";

export type DoctorArea = "cranio" | "coluna" | "clinica" | "anestesia";

/** Clinic session of a weekday: none, morning (07:00–12:00), afternoon (13:00–19:00) or both. */
export const Session = { None: 0, Morning: 1, Afternoon: 2, Full: 3 } as const;
export type Session = (typeof Session)[keyof typeof Session];

/** Consultation grid: 20-minute slots. */
export const SLOT_MIN = 20;
export const MORNING_SLOTS = 15; // 07:00–12:00
export const AFTERNOON_SLOTS = 18; // 13:00–19:00

export interface ScaleDoctor {
  id: number;
  name: string;
  specialty: string;
  area: DoctorArea;
  surgeon: boolean;
  /** Clinic session per weekday (index 0 = Sunday). */
  clinic: Session[];
  /** Operating weekdays (never a clinic day, so a surgeon's surgeries and consultations never overlap). */
  operating: boolean[];
  /** Share of the clinic grid this doctor fills when fully ramped up (busy ≈ 0.9, quiet ≈ 0.3). */
  occupancy: number;
  /** Relative surgical volume per operating day. */
  surgicalLoad: number;
  /** First and last day (inclusive) with the practice; `leaveDay` is Infinity while active. */
  joinDay: number;
  leaveDay: number;
  location: string;
  /** Indices into the hospital list this surgeon operates in (private/mixed first, then public). */
  hospitals: number[];
  /** The patients this doctor saw most recently (a ring buffer of patient indices). */
  recent: Int32Array;
  recentCount: number;
}

const RECENT = 1024;

/** The practice's 40 doctors by specialty: [specialty, area, how many]. */
const ROSTER: Array<[string, DoctorArea, number]> = [
  ["Neurocirurgia", "cranio", 12],
  ["Neurocirurgia Pediátrica", "cranio", 3],
  ["Cirurgia de Coluna", "coluna", 13],
  ["Neurologia", "clinica", 4],
  ["Medicina da Dor", "clinica", 2],
  ["Anestesiologia", "anestesia", 6],
];

const LOCATIONS: Record<Exclude<DoctorArea, "anestesia">, string> = {
  cranio: "Consultório Paulista – Av. Paulista, 1578, conj. 1204",
  coluna: "Consultório Moema – Av. Ibirapuera, 2120, sala 51",
  clinica: "Consultório Vila Mariana – Rua Domingos de Morais, 2187, sala 31",
};

const UFS: ReadonlyArray<readonly [BrazilUf, number]> = [
  ["SP", 85],
  ["MG", 5],
  ["RJ", 4],
  ["PR", 3],
  ["RS", 3],
];

/**
 * Who works at the practice and when. A few founders cover the whole 20 years; the rest joined
 * over time (so the agenda grows), three left (inactive now), and each has a busy or quiet agenda.
 */
export function planDoctors(
  random: Random,
  firstDay: number,
  today: number,
  hospitals: Array<{ type: "public" | "private" | "mixed" }>,
): Omit<ScaleDoctor, "id">[] {
  const surnames = new WeightedTable(SCALE_SURNAMES);
  const usedNames = new Set<string>();
  const doctors: Omit<ScaleDoctor, "id">[] = [];
  const years = Math.round((today - firstDay) / 365.25);
  const privateHospitals = hospitals.map((h, i) => (h.type !== "public" ? i : -1)).filter((i) => i >= 0);
  const publicHospitals = hospitals.map((h, i) => (h.type !== "private" ? i : -1)).filter((i) => i >= 0);

  for (const [specialty, area, count] of ROSTER) {
    for (let k = 0; k < count; k++) {
      const female = random.chance(0.42);
      let name: string;
      do {
        const first = random.pick(female ? SCALE_FEMALE_NAMES : SCALE_MALE_NAMES);
        const middle = surnames.at(random.next());
        let last = surnames.at(random.next());
        while (last === middle) last = surnames.at(random.next());
        name = `${female ? "Dra." : "Dr."} ${first} ${middle} ${last}`;
      } while (usedNames.has(name));
      usedNames.add(name);

      // The first third of each specialty founded the practice; the others joined over the years.
      const founder = k < Math.max(1, Math.ceil(count / 3));
      const joinYear = founder ? 0 : random.int(1, years - 2);
      const joinDay = firstDay + Math.floor(joinYear * 365.25) + random.int(0, 200);
      const surgeon = area === "cranio" || area === "coluna";
      const clinic: Session[] = [0, 0, 0, 0, 0, 0, 0];
      const operating = [false, false, false, false, false, false, false];
      // Busy and quiet agendas: a few stars, a few part-timers, most in between.
      const occupancy = k === 0 ? 0.95 : k === count - 1 ? 0.25 + random.next() * 0.1 : 0.45 + random.next() * 0.45;
      if (surgeon) {
        const clinicDays = random.sample([1, 2, 3, 4, 5], 2);
        for (const wd of clinicDays) clinic[wd] = occupancy < 0.4 ? random.pick([Session.Morning, Session.Afternoon]) : Session.Full;
        for (let wd = 1; wd <= 5; wd++) if (!clinicDays.includes(wd)) operating[wd] = true;
        operating[6] = random.chance(0.35); // elective Saturday lists
      } else if (area === "clinica") {
        const clinicDays = random.sample([1, 2, 3, 4, 5], occupancy < 0.4 ? 2 : random.int(4, 5));
        for (const wd of clinicDays) clinic[wd] = random.chance(0.7) ? Session.Full : random.pick([Session.Morning, Session.Afternoon]);
      }
      const preferred = random.sample(privateHospitals, 2);
      doctors.push({
        name,
        specialty,
        area,
        surgeon,
        clinic,
        operating,
        occupancy,
        // Operating lists vary less than clinic agendas: a theatre day holds only so many cases.
        surgicalLoad: surgeon ? (0.5 + 0.5 * occupancy) * (0.85 + random.next() * 0.3) : area === "anestesia" ? occupancy : 0,
        joinDay,
        leaveDay: Number.POSITIVE_INFINITY,
        location: area === "anestesia" ? "" : LOCATIONS[area],
        hospitals: [...preferred, ...publicHospitals.filter((i) => !preferred.includes(i))],
        recent: new Int32Array(area === "anestesia" ? 0 : RECENT),
        recentCount: 0,
      });
    }
  }
  // Three founders left the practice (kept, inactive, with their history): a neurosurgeon six
  // years ago, a spine surgeon two years ago, a neurologist ten years ago.
  const leavers: Array<[string, number]> = [
    ["Neurocirurgia", 6],
    ["Cirurgia de Coluna", 2],
    ["Neurologia", 10],
  ];
  for (const [specialty, yearsAgo] of leavers) {
    const founders = doctors.filter((d) => d.specialty === specialty && d.joinDay < firstDay + 400);
    const leaver = founders[founders.length - 1];
    leaver.leaveDay = today - Math.floor(yearsAgo * 365.25) + random.int(-60, 60);
  }
  return doctors;
}

/** Inserts the doctors; their search keys come from the model, as the app writes them. */
export function insertDoctors(conn: Database.Database, random: Random, planned: Omit<ScaleDoctor, "id">[], midnightOf: (day: number) => number): ScaleDoctor[] {
  const uf = new WeightedTable(UFS);
  const usedCrm = new Set<string>();
  const insert = conn.prepare(
    `INSERT INTO doctors (name, specialty, crm, crm_uf, phone, email, commission_rate, active, user_id, search_text, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)`,
  );
  return planned.map((d, i) => {
    let crm: string;
    do crm = String(random.int(30_000, 240_000));
    while (usedCrm.has(crm));
    usedCrm.add(crm);
    const crmUf = uf.at(random.next());
    const phone = i % 3 === 0 ? generateLandline(random) : generateMobile(random);
    const words = d.name.split(" ");
    const email = `${slug(words[1])}.${slug(words[words.length - 1])}@sinapse.scale`;
    const commissionRate = d.area === "anestesia" ? 0.15 : random.pick([0.2, 0.25, 0.3, 0.35]);
    const created = midnightOf(d.joinDay) + 9 * 3_600_000;
    const updated = Number.isFinite(d.leaveDay) ? midnightOf(d.leaveDay) + 18 * 3_600_000 : created;
    const searchText = doctorSearchText({ name: d.name, specialty: d.specialty, crm, crmUf, email, phone });
    const id = Number(
      insert.run(d.name, d.specialty, crm, crmUf, phone, email, commissionRate, Number.isFinite(d.leaveDay) ? 0 : 1, searchText, created, updated).lastInsertRowid,
    );
    return { ...d, id };
  });
}

/** Weekday slots of the doctor's clinic session (0 when no clinic that day). */
export function clinicSlots(session: Session): number {
  return (session & Session.Morning ? MORNING_SLOTS : 0) + (session & Session.Afternoon ? AFTERNOON_SLOTS : 0);
}

/** Minutes after midnight of grid slot `i` of a session. */
export function slotMinutes(session: Session, i: number): number {
  if (session & Session.Morning) {
    if (i < MORNING_SLOTS) return 7 * 60 + i * SLOT_MIN;
    i -= MORNING_SLOTS;
  }
  return 13 * 60 + i * SLOT_MIN;
}

/** The last slot index of the morning block, so a 40-minute visit never runs into lunch. */
export function isLastOfBlock(session: Session, i: number): boolean {
  const total = clinicSlots(session);
  return i === total - 1 || (session === Session.Full && i === MORNING_SLOTS - 1);
}

/** Ramp-up of a doctor who just joined: 60 % of the full agenda at first, all of it after two years. */
export function ramp(doctor: Pick<ScaleDoctor, "joinDay">, day: number): number {
  const years = (day - doctor.joinDay) / 365.25;
  return years >= 2 ? 1 : 0.6 + 0.2 * years;
}

export function worksOn(doctor: Pick<ScaleDoctor, "joinDay" | "leaveDay">, day: number): boolean {
  return day >= doctor.joinDay && day <= doctor.leaveDay;
}

export function rememberPatient(doctor: ScaleDoctor, patient: number) {
  if (doctor.recent.length === 0) return;
  doctor.recent[doctor.recentCount % doctor.recent.length] = patient;
  doctor.recentCount++;
}

/** One of the doctor's recent patients, or -1 when the doctor has seen none yet. */
export function recentPatient(doctor: ScaleDoctor, random: Random): number {
  const n = Math.min(doctor.recentCount, doctor.recent.length);
  return n === 0 ? -1 : doctor.recent[Math.floor(random.next() * n)];
}
