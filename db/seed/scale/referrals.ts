import type Database from "better-sqlite3";
import { referrerSearchText } from "../../../app/models/referrer.server";
import { generateLandline } from "../documents";
import type { Random } from "../random";
import { SCALE_FEMALE_NAMES, SCALE_MALE_NAMES, SCALE_SURNAMES, WeightedTable } from "./names";

/**
 * The physicians who send patients to a large spine and neurosurgery practice over 20 years, and
 * who sent whom. Most patients of such a practice come referred; a few referrers (an orthopaedic
 * group, a pain clinic) send thousands, most send a handful: each referrer's weight falls with its
 * rank (1 / rank), so the busiest of 150 sends about one referred patient in six.
 */
export const SCALE_REFERRERS = 150;
/** Share of new patients registered with a referrer ('encaminhado por'). */
export const REFERRED_SHARE = 0.35;

const SPECIALTIES = new WeightedTable<string>([
  ["Ortopedia", 34],
  ["Clínica Médica", 18],
  ["Medicina da Dor", 12],
  ["Neurologia", 12],
  ["Reumatologia", 8],
  ["Fisiatria", 7],
  ["Medicina de Família", 6],
  ["Pediatria", 3],
]);

/**
 * Writes the referrers (at `foundedMs`, like the other Cadastros) and returns `refer`, which links
 * a new patient to one of them, or to none, from its own random stream: the rest of the build is
 * the same with or without referrals.
 */
export function referralWriter(conn: Database.Database, random: Random, foundedMs: number): (patientId: number, createdMs: number) => void {
  const surnames = new WeightedTable(SCALE_SURNAMES);
  const used = new Set<string>();
  const insertReferrer = conn.prepare(
    `INSERT INTO referrers (name, specialty, crm, crm_uf, phone, email, commission_rate, active, search_text, created_at, updated_at)
     VALUES (?, ?, ?, 'SP', ?, NULL, ?, 1, ?, ?, ?)`,
  );
  const weights: Array<readonly [number, number]> = [];
  for (let rank = 1; rank <= SCALE_REFERRERS; rank++) {
    const female = random.chance(0.45);
    let name: string;
    do name = `${female ? "Dra." : "Dr."} ${random.pick(female ? SCALE_FEMALE_NAMES : SCALE_MALE_NAMES)} ${surnames.at(random.next())}`;
    while (used.has(name));
    used.add(name);
    const specialty = SPECIALTIES.at(random.next());
    const crm = String(random.int(20_000, 220_000));
    const phone = generateLandline(random);
    // Most referrers take no commission; some agreements pay 5 or 10 % of the paid surgeries.
    const rate = random.chance(0.8) ? 0 : random.pick([0.05, 0.1]);
    const { lastInsertRowid } = insertReferrer.run(name, specialty, crm, phone, rate, referrerSearchText({ name, specialty, crm, email: null, phone }), foundedMs, foundedMs);
    weights.push([Number(lastInsertRowid), 1 / rank] as const);
  }
  const referrers = new WeightedTable(weights);
  const insertReferral = conn.prepare("INSERT INTO patient_referrals (patient_id, referrer_id, created_by, created_at, updated_at) VALUES (?, ?, NULL, ?, ?)");
  return (patientId, createdMs) => {
    if (random.next() < REFERRED_SHARE) insertReferral.run(patientId, referrers.at(random.next()), createdMs, createdMs);
  };
}
