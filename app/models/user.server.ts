import { and, count, eq, ne, sql } from "drizzle-orm";
import { profiles, sessions, userRoles, users } from "~db/schema";
import { recordAudit } from "~/.server/audit";
import { db } from "~/.server/db";
import { DomainError } from "~/.server/domain-error";
import { normalizeEmail } from "~/.server/credentials";
import { hashPassword, verifyPassword } from "~/.server/password";
import type { Role } from "~/lib/permissions";
import { buildSearchText } from "~/lib/search";
import { likeWord, matchAllWords } from "~/.server/search-sql";

export class AccountError extends DomainError {}

// Credentials live a layer down, where the request plumbing can use them too.
export { normalizeEmail, verifyLogin } from "~/.server/credentials";

/**
 * Creates an account. The first account of the installation becomes admin; every later one
 * starts without a role and waits for an administrator. The check and the insert share one
 * write transaction, so two simultaneous first sign-ups cannot both become admin.
 */
export async function createAccount(input: { name: string; email: string; password: string }) {
  const email = normalizeEmail(input.email);
  const passwordHash = await hashPassword(input.password);
  return db.transaction(
    (tx) => {
      const existing = tx.select({ id: users.id }).from(users).where(eq(users.email, email)).get();
      if (existing) throw new AccountError("Já existe uma conta com este e-mail.", "email");
      const isFirst = tx.select({ n: count() }).from(users).get()!.n === 0;
      const user = tx
        .insert(users)
        .values({ email, passwordHash, searchText: buildSearchText(input.name, email) }).returning({ id: users.id }).get();
      tx.insert(profiles).values({ id: user.id, name: input.name.trim() }).run();
      if (isFirst) tx.insert(userRoles).values({ userId: user.id, role: "admin" }).run();
      recordAudit(tx, {
        userId: user.id,
        action: "create",
        entity: "user",
        entityId: user.id,
        changes: { email, role: isFirst ? "admin" : null },
      });
      return { id: user.id, role: isFirst ? ("admin" as const) : null };
    },
    { behavior: "immediate" },
  );
}

export async function changePassword(userId: number, currentPassword: string, newPassword: string) {
  const user = db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId)).get();
  if (!user || !(await verifyPassword(user.passwordHash, currentPassword))) {
    throw new AccountError("Senha atual incorreta.", "currentPassword");
  }
  const passwordHash = await hashPassword(newPassword);
  db.transaction((tx) => {
    tx.update(users).set({ passwordHash }).where(eq(users.id, userId)).run();
    recordAudit(tx, { userId, action: "update", entity: "user", entityId: userId, changes: { password: "changed" } });
  });
}

/** Whether an administrator required this user to choose a new password at the next sign-in. */
export function mustChangePassword(userId: number): boolean {
  return db.select({ flag: users.mustChangePassword }).from(users).where(eq(users.id, userId)).get()?.flag ?? false;
}

/** The new password chosen at sign-in after an administrator required one; clears the requirement. */
export async function setRequiredPassword(userId: number, newPassword: string) {
  const passwordHash = await hashPassword(newPassword);
  db.transaction((tx) => {
    tx.update(users).set({ passwordHash, mustChangePassword: false }).where(eq(users.id, userId)).run();
    recordAudit(tx, { userId, action: "update", entity: "user", entityId: userId, changes: { password: "changed" } });
  });
}

/**
 * An administrator requires `userId` to choose a new password at the next sign-in (a suspected
 * leak, a shared password): their sessions end now. Not for one's own account (use 'Alterar senha').
 */
export function requirePasswordReset(actorId: number, userId: number) {
  if (actorId === userId) throw new AccountError("Para a sua própria conta, use 'Alterar senha' na aba Segurança.");
  db.transaction((tx) => {
    const changed = tx.update(users).set({ mustChangePassword: true }).where(eq(users.id, userId)).run().changes;
    if (!changed) throw new AccountError("Usuário não encontrado.");
    tx.delete(sessions).where(eq(sessions.userId, userId)).run();
    recordAudit(tx, { userId: actorId, action: "update", entity: "user", entityId: userId, changes: { mustChangePassword: [false, true] } });
  });
}

export const USERS_PAGE_SIZE = 25;

export function listUsers({ q, page }: { q?: string; page: number }) {
  const where = matchAllWords(q ?? "", (word) => likeWord(users.searchText, word));
  const total = db.select({ n: count() }).from(users).where(where).get()!.n;
  const rows = db
    .select({
      id: users.id,
      email: users.email,
      name: profiles.name,
      role: userRoles.role,
      createdAt: users.createdAt,
      mustChangePassword: users.mustChangePassword,
    })
    .from(users)
    .leftJoin(profiles, eq(profiles.id, users.id))
    .leftJoin(userRoles, eq(userRoles.userId, users.id))
    .where(where)
    .orderBy(users.createdAt, users.id)
    .limit(USERS_PAGE_SIZE)
    .offset((page - 1) * USERS_PAGE_SIZE)
    .all();
  return { rows, total };
}

/**
 * Grants a role (or removes it with null). The installation must always keep one admin,
 * so the last admin cannot be demoted. The user's sessions end when the role changes.
 */
export function setUserRole(actorId: number, userId: number, role: Role | null) {
  db.transaction(
    (tx) => {
      const target = tx
        .select({ id: users.id, role: userRoles.role })
        .from(users)
        .leftJoin(userRoles, eq(userRoles.userId, users.id))
        .where(eq(users.id, userId))
        .get();
      if (!target) throw new AccountError("Usuário não encontrado.");
      if (target.role === "admin" && role !== "admin") {
        const otherAdmins = tx
          .select({ n: count() })
          .from(userRoles)
          .where(and(eq(userRoles.role, "admin"), ne(userRoles.userId, userId)))
          .get()!.n;
        if (otherAdmins === 0) throw new AccountError("A clínica precisa de pelo menos um administrador.");
      }
      if (role === null) {
        tx.delete(userRoles).where(eq(userRoles.userId, userId)).run();
      } else {
        tx.insert(userRoles)
          .values({ userId, role, grantedBy: actorId })
          .onConflictDoUpdate({ target: userRoles.userId, set: { role, grantedBy: actorId, updatedAt: new Date() } })
          .run();
      }
      // A privilege change never carries over a session id: the user signs in again (the
      // settings screen gives an administrator changing their own role a fresh token instead).
      if ((target.role ?? null) !== role && userId !== actorId) tx.delete(sessions).where(eq(sessions.userId, userId)).run();
      recordAudit(tx, {
        userId: actorId,
        action: "grant_role",
        entity: "user",
        entityId: userId,
        changes: { role: [target.role ?? null, role] },
      });
    },
    { behavior: "immediate" },
  );
}
