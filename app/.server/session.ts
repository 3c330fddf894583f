import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNull, lt, ne, or, sql } from "drizzle-orm";
import { createCookie } from "react-router";
import { clinicSettings, profiles, sessions, userRoles, users } from "~db/schema";
import type { Role } from "~/lib/permissions";
import { withoutNewVersion, writeCache } from "./data-cache";
import { db, preparedQuery } from "./db";
import { ensureClinicSettings } from "./secrets";

/** A session's last use is written at most once per this interval, to spare writes. */
const TOUCH_INTERVAL_MS = 60 * 1000;
/** A sign-in waiting for its second factor or a new password lasts this long. */
export const PENDING_SIGN_IN_MS = 10 * 60 * 1000;

/**
 * The cookie carries only an opaque random token; the server keeps the state. Over HTTPS the
 * cookie is `__Host-` prefixed (Secure, host-only, path /), so no subdomain or plain-HTTP page
 * can plant or overwrite it.
 */
const cookieOptions = { httpOnly: true, sameSite: "lax", path: "/" } as const;
const plainCookie = createCookie("sinapse_session", cookieOptions);
const hostCookie = createCookie("__Host-sinapse_session", { ...cookieOptions, secure: true });

export interface SessionUser {
  id: number;
  email: string;
  name: string;
  role: Role | null;
}

export type SignInStage = NonNullable<(typeof sessions.$inferSelect)["stage"]>;

function hashToken(token: string) {
  return createHash("sha256").update(token).digest("hex");
}

export function isHttps(request: Request) {
  const forwarded = request.headers.get("X-Forwarded-Proto");
  if (forwarded) return forwarded.split(",")[0].trim() === "https";
  return new URL(request.url).protocol === "https:";
}

/** The idle timeout and absolute lifetime set in Configurações → Segurança. */
export function sessionPolicy() {
  const settings = ensureClinicSettings();
  return { idleMs: settings.sessionIdleMinutes * 60_000, maxMs: settings.sessionMaxHours * 3_600_000 };
}

async function readToken(request: Request): Promise<string | null> {
  const header = request.headers.get("Cookie");
  if (!header?.includes("sinapse_session=")) return null;
  for (const cookie of isHttps(request) ? [hostCookie, plainCookie] : [plainCookie]) {
    const value: unknown = await cookie.parse(header);
    if (typeof value === "string" && /^[A-Za-z0-9_-]{43}$/.test(value)) return value;
  }
  return null;
}

function serialize(request: Request, token: string, options: { maxAge?: number } = {}) {
  return isHttps(request) ? hostCookie.serialize(token, options) : plainCookie.serialize(token, options);
}

/** Removes every session past its idle timeout or absolute lifetime, and stale unfinished sign-ins. */
export function purgeExpiredSessions(now = new Date()) {
  const { idleMs, maxMs } = sessionPolicy();
  return db
    .delete(sessions)
    .where(
      or(
        lt(sessions.expiresAt, now),
        lt(sessions.lastSeenAt, new Date(now.getTime() - idleMs)),
        lt(sessions.createdAt, new Date(now.getTime() - maxMs)),
      ),
    )
    .run().changes;
}

/**
 * Starts a session for the user (a fresh token: the id is never carried over from before the
 * sign-in) and ends the session this browser had before, if any. `stage` marks a sign-in that
 * still awaits its second factor or a new password. Returns the Set-Cookie header value.
 */
export async function createUserSession(
  request: Request,
  userId: number,
  options: { stage?: SignInStage | null; now?: Date } = {},
): Promise<string> {
  const now = options.now ?? new Date();
  const previous = await readToken(request);
  const token = randomBytes(32).toString("base64url");
  const { idleMs, maxMs } = sessionPolicy();
  const lifetime = options.stage ? PENDING_SIGN_IN_MS : Math.min(idleMs, maxMs);
  purgeExpiredSessions(now);
  db.transaction((tx) => {
    if (previous) tx.delete(sessions).where(eq(sessions.tokenHash, hashToken(previous))).run();
    tx.insert(sessions)
      .values({
        tokenHash: hashToken(token),
        userId,
        expiresAt: new Date(now.getTime() + lifetime),
        lastSeenAt: now,
        createdAt: now,
        userAgent: request.headers.get("User-Agent")?.slice(0, 255) ?? null,
        stage: options.stage ?? null,
      })
      .run();
  });
  return serialize(request, token);
}

/**
 * The signed-in user's row, built once as a prepared statement: every page runs it (the shell's
 * loader and the page's), and building the SQL each time cost more than running it.
 */
function buildSessionUserQuery() {
  return db
    .select({
      id: users.id,
      email: users.email,
      name: profiles.name,
      role: userRoles.role,
      lastSeenAt: sessions.lastSeenAt,
      createdAt: sessions.createdAt,
      idleMinutes: clinicSettings.sessionIdleMinutes,
      maxHours: clinicSettings.sessionMaxHours,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(profiles, eq(profiles.id, users.id))
    .leftJoin(userRoles, eq(userRoles.userId, users.id))
    .leftJoin(clinicSettings, eq(clinicSettings.id, 1))
    .where(and(eq(sessions.tokenHash, sql.placeholder("tokenHash")), isNull(sessions.stage)))
    .prepare();
}
const sessionUserQuery = preparedQuery(buildSessionUserQuery);

/**
 * The signed-in user of this request, or null when the cookie is missing, unknown, expired
 * (idle longer than the clinic's timeout, or older than the absolute lifetime; both read from
 * the settings on every request) or still an unfinished sign-in.
 */
export function getSessionUser(request: Request, now = new Date()): Promise<SessionUser | null> {
  // A page's loaders (the shell's and the page's) share one GET request: it reads its session
  // once. An action's request is never kept, so it sees its own sign-out or token rotation.
  if (request.method !== "GET" && request.method !== "HEAD") return lookUpSessionUser(request, now);
  let user = sessionOfRequest.get(request);
  if (!user) {
    user = lookUpSessionUser(request, now);
    sessionOfRequest.set(request, user);
  }
  return user;
}

const sessionOfRequest = new WeakMap<Request, Promise<SessionUser | null>>();

/**
 * A session's row as read, kept until the next write (ADR 0008): every signed-in page reads it,
 * and in the server, after the previous page's render, its five-table read cost 0.2–0.3 ms. Any
 * write (a sign-out, a role or password change, a settings change, a purge, another process's
 * commit) gives the data a new version, so a revoked session is never served from here; a touch is
 * written without one and updates the kept row itself.
 */
const sessionRowsUntilWrite = writeCache(256);

async function lookUpSessionUser(request: Request, now: Date): Promise<SessionUser | null> {
  const token = await readToken(request);
  if (!token) return null;
  const tokenHash = hashToken(token);
  const row = sessionRowsUntilWrite(tokenHash, () => sessionUserQuery().get({ tokenHash }) ?? null);
  if (!row) return null;
  const idleMs = (row.idleMinutes ?? 30) * 60_000;
  const maxMs = (row.maxHours ?? 12) * 3_600_000;
  const idleUntil = row.lastSeenAt.getTime() + idleMs;
  const endOfLife = row.createdAt.getTime() + maxMs;
  if (now.getTime() >= idleUntil || now.getTime() >= endOfLife) {
    db.delete(sessions).where(eq(sessions.tokenHash, tokenHash)).run();
    return null;
  }
  if (now.getTime() - row.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    // No kept figure or list reads sessions: a touch (a minute per signed-in user) must not
    // recompute them (app/.server/data-cache.ts).
    withoutNewVersion(() =>
      db.update(sessions)
        .set({ lastSeenAt: now, expiresAt: new Date(Math.min(now.getTime() + idleMs, endOfLife)) })
        .where(eq(sessions.tokenHash, tokenHash))
        .run(),
    );
    row.lastSeenAt = now;
  }
  return { id: row.id, email: row.email, name: row.name ?? "", role: row.role ?? null };
}

/** This browser's unfinished sign-in (awaiting a second factor or a new password), if still fresh. */
export async function getPendingSignIn(request: Request, now = new Date()): Promise<{ userId: number; stage: SignInStage } | null> {
  const token = await readToken(request);
  if (!token) return null;
  const row = db
    .select({ userId: sessions.userId, stage: sessions.stage, createdAt: sessions.createdAt })
    .from(sessions)
    .where(eq(sessions.tokenHash, hashToken(token)))
    .get();
  if (!row?.stage || now.getTime() - row.createdAt.getTime() > PENDING_SIGN_IN_MS) return null;
  return { userId: row.userId, stage: row.stage };
}

/**
 * Gives this browser's session a new token, keeping its start (and so its absolute lifetime):
 * after a change of the user's own privileges or factors. Returns the Set-Cookie header value.
 */
export async function rotateSession(request: Request): Promise<string | null> {
  const token = await readToken(request);
  if (!token) return null;
  const fresh = randomBytes(32).toString("base64url");
  const changed = db
    .update(sessions)
    .set({ tokenHash: hashToken(fresh) })
    .where(eq(sessions.tokenHash, hashToken(token)))
    .run().changes;
  return changed ? serialize(request, fresh) : null;
}

/** Ends this request's session on the server; returns the Set-Cookie header that clears the cookie. */
export async function destroyUserSession(request: Request): Promise<string> {
  const token = await readToken(request);
  if (token) db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token))).run();
  return serialize(request, "", { maxAge: 0 });
}

/** Signs the user out everywhere but this request's session (after a password change). */
export async function destroyOtherSessions(request: Request, userId: number): Promise<number> {
  const token = await readToken(request);
  const keep = token ? hashToken(token) : "";
  return db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), ne(sessions.tokenHash, keep)))
    .run().changes;
}

/** Signs the user out everywhere (an administrator required a new password, or changed their role). */
export function destroyAllSessions(userId: number): number {
  return db.delete(sessions).where(eq(sessions.userId, userId)).run().changes;
}

/** A stable, non-secret key of this browser's session (the stored hash of its token), to bind short-lived state to it. */
export async function sessionKey(request: Request): Promise<string | null> {
  const token = await readToken(request);
  return token ? hashToken(token) : null;
}
