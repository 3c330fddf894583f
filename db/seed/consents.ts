import * as schema from "../schema";
import type { Accounts } from "./accounts";
import type { SeedContext } from "./context";
import type { PatientPool } from "./patients";
import { Random } from "./random";
import { DAY } from "./time";

/**
 * Consents other than WhatsApp's (which the patients' opt-in already logs): most patients signed
 * the privacy notice at their first visit, some authorised image use (a few withdrew it later),
 * a few joined research. Its own random stream, so the families seeded before keep their data.
 */
export function seedConsents({ tx, nowMs }: SeedContext, { officeUsers }: Accounts, { patients, patientIds }: PatientPool) {
  const random = new Random(22_018);
  const rows: (typeof schema.patientConsents.$inferInsert)[] = [];
  patients.forEach((draft, index) => {
    const patientId = patientIds[index];
    const createdMs = draft.row.createdAt instanceof Date ? draft.row.createdAt.getTime() : nowMs - random.int(30, 700) * DAY;
    const recordedBy = officeUsers[random.int(0, officeUsers.length - 1)];
    const at = (offsetDays: number) => new Date(Math.min(nowMs, createdMs + offsetDays * DAY));
    if (random.chance(0.85)) rows.push({ patientId, purpose: "tratamento_dados", granted: true, source: "formulario", recordedBy, createdAt: at(0) });
    if (random.chance(0.2)) {
      rows.push({ patientId, purpose: "uso_imagem", granted: true, source: "formulario", recordedBy, createdAt: at(1) });
      if (random.chance(0.15)) rows.push({ patientId, purpose: "uso_imagem", granted: false, source: "verbal", recordedBy, createdAt: at(random.int(10, 90)) });
    }
    if (random.chance(0.06)) rows.push({ patientId, purpose: "pesquisa", granted: true, source: "formulario", recordedBy, createdAt: at(2) });
  });
  // Oldest first, so the log's ids follow time as a real clinic's would.
  rows.sort((a, b) => (a.createdAt as Date).getTime() - (b.createdAt as Date).getTime());
  for (let i = 0; i < rows.length; i += 200) tx.insert(schema.patientConsents).values(rows.slice(i, i + 200)).run();
}
