import { randomBytes } from "node:crypto";
import { and, inArray, isNull, lt, or, sql } from "drizzle-orm";
import { createCookie } from "react-router";
import { loginThrottle } from "~db/schema";
import { clientAddress } from "./audit";
import { db } from "./db";
import { getCookieSecret, ensureClinicSettings } from "./secrets";
import { isHttps } from "./session";

/**
 * Sign-in throttling, stored in the database (survives restarts; nothing is evicted to make room).
 * See docs/decisions/0010-login-throttling-sessions-and-mfa.md:
 * - per account and per IP address: after the clinic's limit of failures (≤ 10; 10× that for an
 *   address, which many people may share) the key cools down for 1 minute, doubling with each
 *   further failure up to 30 minutes. A cool-down always ends: nobody is locked out for good.
 * - a browser where the account signed in successfully before carries a signed device cookie; its
 *   attempts for that account count against that device alone, so strangers guessing the
 *   password (from anywhere) never lock the real user out of their usual browser.
 */

const BASE_COOL_DOWN_MS = 60 * 1000;
const MAX_COOL_DOWN_MS = 30 * 60 * 1000;
/** A key with no failure for this long is forgotten. */
const FORGET_AFTER_MS = 24 * 60 * 60 * 1000;
const IP_FACTOR = 10;

const cookieOptions = { httpOnly: true, sameSite: "lax", path: "/", maxAge: 365 * 24 * 60 * 60 } as const;
let deviceCookies: { plain: ReturnType<typeof createCookie>; host: ReturnType<typeof createCookie> } | undefined;
function devices() {
  // Built on first use: the signing secret lives in the database.
  deviceCookies ??= {
    plain: createCookie("sinapse_device", { ...cookieOptions, secrets: [getCookieSecret()] }),
    host: createCookie("__Host-sinapse_device", { ...cookieOptions, secure: true, secrets: [getCookieSecret()] }),
  };
  return deviceCookies;
}

/** The device id this browser holds for `userId` (set after a successful sign-in), if any. */
export async function knownDevice(request: Request, userId: number | null): Promise<string | null> {
  const header = request.headers.get("Cookie");
  if (userId === null || !header?.includes("sinapse_device=")) return null;
  const cookie = isHttps(request) ? devices().host : devices().plain;
  const value: unknown = await cookie.parse(header);
  if (typeof value !== "string") return null;
  const [owner, id] = value.split(".");
  return owner === String(userId) && /^[A-Za-z0-9_-]{22}$/.test(id ?? "") ? id : null;
}

/** The Set-Cookie header that marks this browser as one the user signed in on. */
export function deviceCookie(request: Request, userId: number, existing: string | null): Promise<string> {
  const id = existing ?? randomBytes(16).toString("base64url");
  const cookie = isHttps(request) ? devices().host : devices().plain;
  return cookie.serialize(`${userId}.${id}`);
}

export interface AttemptKeys {
  /** Keys checked and charged for this attempt. */
  keys: { key: string; limit: number }[];
}

/** The keys an attempt is counted against: the device alone when it is known, else the account and the address. */
export function attemptKeys(email: string, request: Request, device: string | null): AttemptKeys {
  const limit = ensureClinicSettings().loginMaxFailures;
  if (device) return { keys: [{ key: `device:${device}`, limit }] };
  return {
    keys: [
      { key: `account:${email.slice(0, 254)}`, limit },
      { key: `ip:${clientAddress(request) ?? "desconhecido"}`, limit: limit * IP_FACTOR },
    ],
  };
}

/** Milliseconds until the attempt may be tried (0: now). */
export function coolDownLeft({ keys }: AttemptKeys, now = new Date()): number {
  const rows = db
    .select({ lockedUntil: loginThrottle.lockedUntil })
    .from(loginThrottle)
    .where(inArray(loginThrottle.key, keys.map((k) => k.key)))
    .all();
  return Math.max(0, ...rows.map((row) => (row.lockedUntil ? row.lockedUntil.getTime() - now.getTime() : 0)));
}

export function coolDownFor(failures: number, limit: number): number {
  if (failures < limit) return 0;
  return Math.min(BASE_COOL_DOWN_MS * 2 ** Math.min(failures - limit, 20), MAX_COOL_DOWN_MS);
}

/** Counts a failed attempt against each key, starting or lengthening a cool-down past the limit. */
export function noteFailure({ keys }: AttemptKeys, now = new Date()) {
  db.transaction((tx) => {
    // Forget keys quiet for a day (indexed): the table holds at most a day of failures.
    tx.delete(loginThrottle)
      .where(
        and(
          lt(loginThrottle.lastFailureAt, new Date(now.getTime() - FORGET_AFTER_MS)),
          or(isNull(loginThrottle.lockedUntil), lt(loginThrottle.lockedUntil, now)),
        ),
      )
      .run();
    for (const { key, limit } of keys) {
      const row = tx
        .insert(loginThrottle)
        .values({ key, failures: 1, lastFailureAt: now })
        .onConflictDoUpdate({ target: loginThrottle.key, set: { failures: sql`${loginThrottle.failures} + 1`, lastFailureAt: now } })
        .returning({ failures: loginThrottle.failures })
        .get();
      const coolDown = coolDownFor(row.failures, limit);
      if (coolDown > 0) {
        tx.update(loginThrottle)
          .set({ lockedUntil: new Date(now.getTime() + coolDown) })
          .where(inArray(loginThrottle.key, [key]))
          .run();
      }
    }
  });
}

/** A successful sign-in clears its account's and device's failures (not the address's). */
export function clearFailures({ keys }: AttemptKeys) {
  const cleared = keys.map((k) => k.key).filter((key) => !key.startsWith("ip:"));
  if (cleared.length) db.delete(loginThrottle).where(inArray(loginThrottle.key, cleared)).run();
}
