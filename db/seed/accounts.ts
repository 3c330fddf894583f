import type { Role } from "../../app/lib/permissions";
import { buildSearchText } from "../../app/lib/search";
import * as schema from "../schema";
import { insertRows, type SeedContext } from "./context";

export const DEMO_PASSWORD = "demo12345";

/** One login per role, printed at the end of a run. */
export const LOGINS: Array<{ email: string; name: string; role: Role; label: string }> = [
  { email: "admin@sinapse.demo", name: "Ana Paula Rezende", role: "admin", label: "administrador" },
  { email: "equipe@sinapse.demo", name: "Beatriz Gonçalves Lima", role: "staff", label: "equipe" },
  { email: "medico@sinapse.demo", name: "Dr. Ricardo Almeida Figueiredo", role: "doctor", label: "médico" },
];

export interface Accounts {
  adminId: number;
  staffId: number;
  /** The login of the doctor who has a doctors row (medico@sinapse.demo). */
  doctorUserId: number;
  /** Who creates the office's rows, weighted towards the staff login. */
  officeUsers: number[];
}

/** Users, profiles and roles of LOGINS; `passwordHashes` in the same order. */
export function seedAccounts({ tx }: SeedContext, passwordHashes: string[]): Accounts {
  const userIds = insertRows(
    tx,
    schema.users,
    LOGINS.map((login, i) => ({
      email: login.email,
      passwordHash: passwordHashes[i],
      searchText: buildSearchText(login.name, login.email),
    })),
  );
  const [adminId, staffId, doctorUserId] = userIds;
  tx.insert(schema.profiles).values(LOGINS.map((login, i) => ({ id: userIds[i], name: login.name }))).run();
  tx.insert(schema.userRoles)
    .values(LOGINS.map((login, i) => ({ userId: userIds[i], role: login.role, grantedBy: i === 0 ? null : adminId })))
    .run();
  return { adminId, staffId, doctorUserId, officeUsers: [staffId, staffId, adminId] };
}
