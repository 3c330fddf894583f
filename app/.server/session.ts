import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, lt, ne } from "drizzle-orm";
import { createCookie } from "react-router";
import { profiles, sessions, userRoles, users } from "~db/schema";
import type { Role } from "~/lib/permissions";
import { db } from "./db";

/** Idle lifetime of a session; each use extends it. */
export const SESSION_IDLE_MS = Number(process.env.SESSION_IDLE_HOURS ?? 12) * 60 * 60 * 1000;
/** A session's expiry is pushed forward at most once per this interval, to spare writes. */
const TOUCH_INTERVAL_MS = 5 * 60 * 1000;

// The cookie carries only an opaque random token; the server keeps the state.
const sessionCookie = createCookie("sinapse_session", {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
});

export interface SessionUser {
  id: number;
  email: string;
  name: string;
  role: Role | null;
}

function hashToken(token: string) {
  return createHash("sha256").update(token).digest("hex");
}

function isHttps(request: Request) {
  const forwarded = request.headers.get("X-Forwarded-Proto");
  if (forwarded) return forwarded.split(",")[0].trim() === "https";
  return new URL(request.url).protocol === "https:";
}

async function readToken(request: Request): Promise<string | null> {
  const header = request.headers.get("Cookie");
  if (!header?.includes("sinapse_session=")) return null;
  const value: unknown = await sessionCookie.parse(header);
  return typeof value === "string" && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : null;
}

/** Starts a session for the user; returns the Set-Cookie header value. */
export async function createUserSession(request: Request, userId: number, now = new Date()): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  db.transaction((tx) => {
    tx.delete(sessions).where(lt(sessions.expiresAt, now)).run();
    tx.insert(sessions)
      .values({
        tokenHash: hashToken(token),
        userId,
        expiresAt: new Date(now.getTime() + SESSION_IDLE_MS),
        lastSeenAt: now,
        userAgent: request.headers.get("User-Agent")?.slice(0, 255) ?? null,
      })
      .run();
  });
  return sessionCookie.serialize(token, { secure: isHttps(request) });
}

/** The signed-in user of this request, or null when the cookie is missing, unknown or expired. */
export async function getSessionUser(request: Request, now = new Date()): Promise<SessionUser | null> {
  const token = await readToken(request);
  if (!token) return null;
  const tokenHash = hashToken(token);
  const row = db
    .select({
      id: users.id,
      email: users.email,
      name: profiles.name,
      role: userRoles.role,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(profiles, eq(profiles.id, users.id))
    .leftJoin(userRoles, eq(userRoles.userId, users.id))
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, now)))
    .get();
  if (!row) return null;
  if (now.getTime() - row.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    db.update(sessions)
      .set({ lastSeenAt: now, expiresAt: new Date(now.getTime() + SESSION_IDLE_MS) })
      .where(eq(sessions.tokenHash, tokenHash))
      .run();
  }
  return { id: row.id, email: row.email, name: row.name ?? "", role: row.role ?? null };
}

/** Ends this request's session on the server; returns the Set-Cookie header that clears the cookie. */
export async function destroyUserSession(request: Request): Promise<string> {
  const token = await readToken(request);
  if (token) db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token))).run();
  return sessionCookie.serialize("", { maxAge: 0, secure: isHttps(request) });
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
