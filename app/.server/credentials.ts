import { eq } from "drizzle-orm";
import { users } from "~db/schema";
import { db } from "./db";
import { hashPassword, verifyPassword } from "./password";

/**
 * Checking a login's credentials: what the request plumbing (auth.ts) needs from the accounts,
 * kept below the models so .server never imports a screen model.
 */

export function normalizeEmail(email: string) {
  return email.trim().toLowerCase();
}

/** The id of the account with this e-mail, or null. */
export function findUserId(email: string): number | null {
  return db.select({ id: users.id }).from(users).where(eq(users.email, normalizeEmail(email))).get()?.id ?? null;
}

/** The user id when the e-mail and password match, otherwise null. */
export async function verifyLogin(email: string, password: string): Promise<number | null> {
  const user = db
    .select({ id: users.id, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.email, normalizeEmail(email)))
    .get();
  if (!user) {
    // Spend the same time as a real check so response time does not reveal which e-mails exist.
    dummyHash ??= await hashPassword("sinapse-timing-equaliser");
    await verifyPassword(dummyHash, password);
    return null;
  }
  return (await verifyPassword(user.passwordHash, password)) ? user.id : null;
}
let dummyHash: string | undefined;
