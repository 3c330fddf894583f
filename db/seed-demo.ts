/**
 * Demo data set: `npm run seed:demo` (add `--force` to replace existing data).
 *
 * Fills an empty database with a realistic Brazilian neurosurgery/spine practice: patients,
 * doctors, agenda, surgeries across the whole pipeline, fees, finance, tasks, master data and
 * messaging, plus one login per role. Everything is written in one transaction, with a seeded
 * pseudo-random generator, so a run is reproducible (dates are relative to today).
 */
import { databasePath, db, runMigrations, sqlite, type Tx } from "../app/.server/db";
import { hashPassword } from "../app/.server/password";
import { fillSearchKeys } from "../app/.server/search-keys";
import { isValidCnpj, isValidCpf } from "../app/lib/documents";
import { DEMO_PASSWORD, LOGINS, seedAccounts } from "./seed/accounts";
import { planAgenda, seedAppointments } from "./seed/appointments";
import { seedCommunication } from "./seed/communication";
import { seedConsents } from "./seed/consents";
import { seedContext } from "./seed/context";
import { seedDoctors } from "./seed/doctors";
import { seedFinance } from "./seed/finance";
import { seedPorteTables, seedSurgeryFeeInputs } from "./seed/fees";
import { seedMasterData, seedReferrals, seedReferrers } from "./seed/master-data";
import { seedOpme } from "./seed/opme";
import { seedOrders, seedSops } from "./seed/operations";
import { seedPatientDocuments } from "./seed/patient-documents";
import { draftPatients, insertPatients, markNewPatients } from "./seed/patients";
import { Random } from "./seed/random";
import { seedReceivables } from "./seed/receivables";
import { seedSurgeries } from "./seed/surgeries";
import { SEEDED_TABLES, refuseUnlessEmpty, wipeSeededTables } from "./seed/tables";
import { seedTasks } from "./seed/tasks";

const SEED = 20_240_915;



/**
 * One family at a time, each in db/seed/<family>.ts. The order is part of the data: every
 * family draws from the same generator, so moving a call changes everything after it.
 */
function seed(tx: Tx, passwordHashes: string[], now: Date) {
  const ctx = seedContext(tx, new Random(SEED), now);
  const accounts = seedAccounts(ctx, passwordHashes);
  const master = seedMasterData(ctx);
  const staff = seedDoctors(ctx, accounts);
  // Patients are inserted only once the agenda has decided who among them is new.
  const patients = draftPatients(ctx, staff);
  const agenda = planAgenda(ctx, staff, patients);
  markNewPatients(ctx, patients, agenda.drafts);
  const pool = insertPatients(ctx, patients);
  const appointments = seedAppointments(ctx, staff, pool, agenda, accounts.officeUsers);
  const surgeries = seedSurgeries(ctx, accounts, staff, pool, agenda, master);
  seedFinance(ctx, accounts, pool, agenda, appointments, surgeries);
  seedPorteTables(ctx);
  seedSurgeryFeeInputs(ctx, master, surgeries);
  seedTasks(ctx, accounts, pool, surgeries);
  seedSops(ctx, accounts);
  seedOrders(ctx, accounts, pool, master, surgeries);
  seedReferrals(ctx, seedReferrers(ctx), pool.patientIds);
  seedCommunication(ctx, accounts, staff, pool, agenda, appointments);
  seedPatientDocuments(ctx, accounts, pool, surgeries);
  seedOpme(ctx, accounts, master, surgeries);
  seedConsents(ctx, accounts, pool);
  seedReceivables(ctx, accounts);
}

function countRows(): Array<[string, number]> {
  return SEEDED_TABLES.filter((t) => t !== "sessions" && t !== "audit_log")
    .slice()
    .reverse()
    .map((t) => [t, (sqlite.prepare(`SELECT count(*) AS n FROM "${t}"`).get() as { n: number }).n]);
}

async function main() {
  const force = process.argv.includes("--force");
  runMigrations(sqlite);

  refuseUnlessEmpty(sqlite, { databasePath, force, seed: "O seed de demonstração", command: "npm run seed:demo" });

  const started = Date.now();
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const now = new Date();
  db.transaction(
    (tx) => {
      if (force) wipeSeededTables(sqlite);
      seed(
        tx,
        LOGINS.map(() => passwordHash),
        now,
      );
    },
    { behavior: "immediate" },
  );

  // The appointments' and surgeries' search keys, as the models would have written them.
  fillSearchKeys(sqlite);

  // Cheap self-checks of the generated documents (a broken generator would fail loudly here).
  const badCpf = (sqlite.prepare("SELECT cpf FROM patients WHERE cpf IS NOT NULL").all() as Array<{ cpf: string }>).filter((r) => !isValidCpf(r.cpf));
  const badCnpj = (
    sqlite.prepare("SELECT cnpj FROM payers WHERE cnpj IS NOT NULL UNION ALL SELECT cnpj FROM hospitals UNION ALL SELECT cnpj FROM suppliers").all() as Array<{
      cnpj: string | null;
    }>
  ).filter((r) => r.cnpj && !isValidCnpj(r.cnpj));
  if (badCpf.length || badCnpj.length) throw new Error(`Documentos inválidos gerados: ${badCpf.length} CPF, ${badCnpj.length} CNPJ`);

  console.log(`Demonstração criada em ${databasePath} (${Date.now() - started} ms).\n`);
  for (const [table, n] of countRows()) console.log(`  ${table.padEnd(26)} ${n}`);
  console.log("\nLogins (senha para todos: demo12345):");
  for (const login of LOGINS) console.log(`  ${login.email.padEnd(22)} ${login.label}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
