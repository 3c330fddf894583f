import { createHash, randomInt } from "node:crypto";
import { and, count, eq, isNotNull, isNull } from "drizzle-orm";
import { createCookie } from "react-router";
import { mfaFactors, mfaRecoveryCodes } from "~db/schema";
import { recordAudit } from "./audit";
import { db } from "./db";
import { onFirstImport } from "./on-first-use";
import { getCookieSecret, openSealed, sealText } from "./secrets";

/**
 * TOTP second factor (RFC 6238: 6 digits, 30 s, SHA-1, as every authenticator app reads it) with
 * otplib; ten single-use recovery codes. The secret is encrypted with AES-256-GCM under a key
 * derived from MFA_ENCRYPTION_KEY (else SESSION_SECRET, else the secret stored in the settings),
 * and shown only while enrolling; recovery codes are stored as SHA-256 hashes and shown once.
 */

const ISSUER = "Sinapse";
const RECOVERY_CODES = 10;
const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

function key() {
  const material = process.env.MFA_ENCRYPTION_KEY || getCookieSecret();
  return createHash("sha256").update(`sinapse-mfa:${material}`).digest();
}

function encrypt(secret: string) {
  return sealText(key(), secret);
}

function decrypt(stored: string) {
  return openSealed(key(), stored);
}

function hashCode(code: string) {
  return createHash("sha256").update(normalizeRecoveryCode(code)).digest("hex");
}

function normalizeRecoveryCode(code: string) {
  return code.toLowerCase().replace(/[^a-z0-9]/g, "");
}

function newRecoveryCode() {
  let code = "";
  for (let i = 0; i < 10; i++) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

export interface MfaStatus {
  /** A verified factor protects the sign-in. */
  enabled: boolean;
  /** Enrolment started, awaiting the first code. */
  pending: boolean;
  recoveryCodesLeft: number;
  verifiedAt: Date | null;
}

export function mfaStatus(userId: number): MfaStatus {
  const factor = db.select().from(mfaFactors).where(eq(mfaFactors.userId, userId)).get();
  const left = factor?.verifiedAt
    ? db.select({ n: count() }).from(mfaRecoveryCodes).where(and(eq(mfaRecoveryCodes.userId, userId), isNull(mfaRecoveryCodes.usedAt))).get()!.n
    : 0;
  return { enabled: !!factor?.verifiedAt, pending: !!factor && !factor.verifiedAt, recoveryCodesLeft: left, verifiedAt: factor?.verifiedAt ?? null };
}

export function hasVerifiedFactor(userId: number): boolean {
  return !!db.select({ id: mfaFactors.userId }).from(mfaFactors).where(and(eq(mfaFactors.userId, userId), isNotNull(mfaFactors.verifiedAt))).get();
}

/** The TOTP library and the QR code's, imported by the first enrolment or second-factor sign-in (./on-first-use.ts). */
const otp = onFirstImport(() => import("otplib"));
const qrCode = onFirstImport(async () => (await import("qrcode")).default);

/** Starts (or restarts) enrolment with a fresh secret; a verified factor must be removed first. */
export async function startEnrolment(userId: number) {
  if (hasVerifiedFactor(userId)) return;
  const secretEncrypted = encrypt((await otp()).generateSecret());
  db.insert(mfaFactors)
    .values({ userId, secretEncrypted })
    .onConflictDoUpdate({ target: mfaFactors.userId, set: { secretEncrypted, verifiedAt: null, lastTimeStep: null } })
    .run();
}

/** What the enrolment screen shows while a factor awaits its first code: the QR code (SVG) and the key to type. */
export async function enrolmentDetails(userId: number, label: string) {
  const factor = db.select().from(mfaFactors).where(eq(mfaFactors.userId, userId)).get();
  if (!factor || factor.verifiedAt) return null;
  const secret = decrypt(factor.secretEncrypted);
  const uri = (await otp()).generateURI({ issuer: ISSUER, label, secret });
  const svg = await (await qrCode()).toString(uri, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  return { svg, secret: secret.replace(/(.{4})/g, "$1 ").trim() };
}

async function checkTotp(userId: number, code: string, now: number): Promise<boolean> {
  const factor = db.select().from(mfaFactors).where(eq(mfaFactors.userId, userId)).get();
  if (!factor || !/^\d{6}$/.test(code)) return false;
  const result = await (await otp()).verify({
    secret: decrypt(factor.secretEncrypted),
    token: code,
    epoch: Math.floor(now / 1000),
    epochTolerance: 30,
    afterTimeStep: factor.lastTimeStep ?? undefined,
  });
  if (!result.valid) return false;
  const timeStep = "timeStep" in result && typeof result.timeStep === "number" ? result.timeStep : Math.floor(now / 30_000);
  db.update(mfaFactors).set({ lastTimeStep: timeStep }).where(eq(mfaFactors.userId, userId)).run();
  return true;
}

/** Finishes enrolment with a first valid code; returns the ten recovery codes (shown once), or null. */
export async function verifyEnrolment(userId: number, code: string, now = Date.now()): Promise<string[] | null> {
  const factor = db.select().from(mfaFactors).where(eq(mfaFactors.userId, userId)).get();
  if (!factor || factor.verifiedAt) return null;
  if (!(await checkTotp(userId, code.replace(/\s/g, ""), now))) return null;
  const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
  db.transaction((tx) => {
    tx.update(mfaFactors).set({ verifiedAt: new Date(now) }).where(eq(mfaFactors.userId, userId)).run();
    tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId)).run();
    tx.insert(mfaRecoveryCodes).values(codes.map((c) => ({ userId, codeHash: hashCode(c) }))).run();
    recordAudit(tx, { userId, action: "update", entity: "mfa_factor", entityId: userId, changes: { mfa: "enabled" } });
  });
  return codes;
}

/** A sign-in's second step: a current TOTP code (never the same one twice) or an unused recovery code. */
export async function verifySecondFactor(userId: number, input: string, now = Date.now()): Promise<"totp" | "recovery" | null> {
  const compact = input.replace(/\s/g, "");
  if (/^\d{6}$/.test(compact)) return (await checkTotp(userId, compact, now)) ? "totp" : null;
  const normalized = normalizeRecoveryCode(compact);
  if (normalized.length !== 10) return null;
  const used = db
    .update(mfaRecoveryCodes)
    .set({ usedAt: new Date(now) })
    .where(and(eq(mfaRecoveryCodes.userId, userId), eq(mfaRecoveryCodes.codeHash, hashCode(normalized)), isNull(mfaRecoveryCodes.usedAt)))
    .run().changes;
  return used ? "recovery" : null;
}

/** Removes the user's factor and recovery codes. */
export function removeFactor(userId: number) {
  db.transaction((tx) => {
    const removed = tx.delete(mfaFactors).where(eq(mfaFactors.userId, userId)).run().changes;
    tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId)).run();
    if (removed) recordAudit(tx, { userId, action: "update", entity: "mfa_factor", entityId: userId, changes: { mfa: "removed" } });
  });
}

// The ten recovery codes reach the browser once: in a short-lived signed cookie set by the action
// that made them and cleared by the page that shows them (no JavaScript needed, never stored plain).
let codesCookie: ReturnType<typeof createCookie> | undefined;
function recoveryCodesCookie() {
  codesCookie ??= createCookie("sinapse_recovery_codes", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    maxAge: 300,
    secrets: [getCookieSecret()],
  });
  return codesCookie;
}

export function flashRecoveryCodes(codes: string[]): Promise<string> {
  return recoveryCodesCookie().serialize(codes);
}

/** The codes just made (once), and the Set-Cookie header that clears them. */
export async function readRecoveryCodes(request: Request): Promise<{ codes: string[] | null; clear: string | null }> {
  const header = request.headers.get("Cookie");
  if (!header?.includes("sinapse_recovery_codes=")) return { codes: null, clear: null };
  const value: unknown = await recoveryCodesCookie().parse(header);
  const clear = await recoveryCodesCookie().serialize("", { maxAge: 0 });
  const codes = Array.isArray(value) && value.every((c) => typeof c === "string") ? (value as string[]).slice(0, RECOVERY_CODES) : null;
  return { codes, clear };
}
