import type Database from "better-sqlite3";
import { withAuditGuardsLifted } from "../../app/.server/audit-chain";

/**
 * Tables the seeds (demo and scale) own, children first. The demo seed's `--force` empties them (and the accounts)
 * before seeding; the scale seed's removes the whole file instead (db/seed-scale.ts).
 * Clinic settings and the Google connection/files are configuration, not demo data: the demo seed keeps them.
 */
export const SEEDED_TABLES = [
  "receivable_payments",
  "receivable_glosa_lines",
  "receivable_glosas",
  "receivable_moves",
  "fee_statement_imports",
  "automation_rules",
  "messages",
  "message_templates",
  "documents",
  "stage_checklist_runs",
  "subtasks",
  "tasks",
  "surgery_fee_lines",
  "pipeline_stages",
  "opme_quote_prices",
  "opme_items",
  "opme_quotes",
  "opme_requests",
  "financial_transactions",
  "order_status_changes",
  "orders",
  "surgeries",
  "appointments",
  "patient_referrals",
  "patient_consents",
  "referrers",
  "sop_versions",
  "sops",
  "medical_codes",
  "reference_fee_schedules",
  "suppliers",
  "hospitals",
  "payers",
  "doctors",
  "patients",
  "sessions",
  "user_roles",
  "profiles",
  "audit_log",
  "users",
] as const;

/**
 * Empties the seeded tables and their id sequences. Run it inside the transaction that seeds, so a
 * failed seed leaves the data as it was; foreign keys are checked at COMMIT, so the delete order
 * cannot trip one midway.
 */
export function wipeSeededTables(conn: Database.Database) {
  conn.pragma("defer_foreign_keys = ON");
  // The audit trail is append-only (ADR 0011); only a seed's --force, which replaces the whole
  // database's content, lifts that for the time of its wipe, and the new trail starts a new chain.
  withAuditGuardsLifted(conn, () => {
    for (const table of SEEDED_TABLES) conn.exec(`DELETE FROM "${table}"`);
  });
  conn.exec(`DELETE FROM sqlite_sequence WHERE name IN (${SEEDED_TABLES.map((t) => `'${t}'`).join(", ")})`);
  // The new trail starts at id 1 and holds every id from there (migration 0045).
  conn.exec("UPDATE audit_log_dense SET first_id = 1");
}

/**
 * Stops a seed (exit 1, with the command that would wipe) when the database already holds accounts
 * or patients and `--force` was not given: a seed never overwrites a clinic's data by accident.
 */
export function refuseUnlessEmpty(conn: Database.Database, options: { databasePath: string; force: boolean; seed: string; command: string }) {
  const existing = conn.prepare("SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM patients) AS patients").get() as {
    users: number;
    patients: number;
  };
  if ((existing.users > 0 || existing.patients > 0) && !options.force) {
    console.error(
      `Recusado: o banco ${options.databasePath} já tem dados (${existing.users} usuário(s), ${existing.patients} paciente(s)).\n` +
        `${options.seed} só roda num banco vazio. Para APAGAR os dados, rode:\n` +
        `  ${options.command} -- --force`,
    );
    process.exit(1);
  }
}
