import { data, redirect } from "react-router";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { type Action, type Area, can } from "~/lib/permissions";
import { loginSchema } from "~/validation/auth";
import { recordAuthEvent } from "./audit";
import { findUserId, normalizeEmail, verifyLogin } from "./credentials";
import { db } from "./db";
import { hasVerifiedFactor } from "./mfa";
import { routeUrl } from "./route-url";
import { ensureClinicSettings } from "./secrets";
import { type SessionUser, getSessionUser } from "./session";
import { attemptKeys, clearFailures, coolDownLeft, knownDevice, noteFailure } from "./throttle";

export class LoginError extends Error {}

/** The one answer to a wrong e-mail or password, whether or not the account exists. */
export const LOGIN_FAILED = "E-mail ou senha incorretos.";
export const LOGIN_COOLING_DOWN = "Muitas tentativas de acesso. Aguarde alguns minutos e tente novamente.";

/** Every sign-in attempt goes to the audit log (app/.server/audit.ts): who (when known), from where, how it ended. */
export function auditSignIn(
  userId: number | null,
  request: Request,
  outcome: "success" | "failure" | "cooling_down" | "mfa_failure",
  email?: string,
) {
  if (outcome === "success") return recordAuthEvent(request, { action: "login", userId });
  if (outcome === "cooling_down") return recordAuthEvent(request, { action: "lockout", userId, email, reason: "cool-down" });
  recordAuthEvent(request, { action: "login_failed", userId, email, reason: outcome === "mfa_failure" ? "second factor" : "password" });
}

export interface SignInResult {
  userId: number;
  /** The browser's known-device id for this user (kept), or null for a new one. */
  device: string | null;
}

/**
 * Checks e-mail and password under the throttle (app/.server/throttle.ts): a key cooling down is
 * refused before the password is looked at; a failure is counted against the device, or the
 * account and the address. Unknown and known e-mails take the same path, the same time (a dummy
 * hash is verified for an unknown one) and get the same message.
 */
export const authenticator = new Authenticator<SignInResult>();
authenticator.use(
  new FormStrategy(async ({ form, request }) => {
    const parsed = loginSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success) throw new LoginError("Informe e-mail e senha válidos.");
    const email = normalizeEmail(parsed.data.email);
    const now = new Date();
    const device = await knownDevice(request, findUserId(email));
    const keys = attemptKeys(email, request, device);
    if (coolDownLeft(keys, now) > 0) {
      auditSignIn(findUserId(email), request, "cooling_down", email);
      throw new LoginError(LOGIN_COOLING_DOWN);
    }
    const userId = await verifyLogin(email, parsed.data.password);
    if (userId === null) {
      noteFailure(keys, now);
      auditSignIn(findUserId(email), request, "failure", email);
      throw new LoginError(LOGIN_FAILED);
    }
    clearFailures(keys);
    return { userId, device };
  }),
  "form",
);

const REDIRECT_BASE = "http://sinapse.invalid";

/**
 * Only a path on this site may be a post-login destination (no open redirects). The value is
 * judged as a browser would read it: control characters and backslashes are refused outright
 * (browsers drop tabs and newlines and read `\\` as `/`, so `/\t/evil.example` would become
 * `//evil.example`), then the URL is parsed and must keep our origin; what is returned is the
 * parsed, normalised path, never the raw string.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/dashboard") {
  if (typeof to !== "string" || to.length > 2000 || !to.startsWith("/")) return fallback;
  if (/[\u0000-\u001f\u007f\\]/.test(to)) return fallback;
  let url: URL;
  try {
    url = new URL(to, REDIRECT_BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== REDIRECT_BASE) return fallback;
  const path = url.pathname + url.search + url.hash;
  if (!path.startsWith("/") || path.startsWith("//") || path.startsWith("/\\")) return fallback;
  return path;
}

function isApiRequest(request: Request) {
  return routeUrl(request).pathname.startsWith("/api/");
}

function refuseCrossOrigin(request: Request, origin: string): never {
  // One line, not a stack trace: a refused forgery is expected traffic, not a server fault.
  console.warn(`refused cross-origin ${request.method} ${routeUrl(request).pathname} from ${origin.slice(0, 200)}`);
  throw data({ error: "Origem da requisição não permitida." }, { status: 403 });
}

/**
 * A write must come from our own pages. SameSite=Lax already keeps the session cookie off
 * cross-site POSTs; checking Origin (and Sec-Fetch-Site) closes the gap for older browsers and
 * stops login CSRF, where no session is involved. A request without either header comes from a
 * client that is not a browser and carries no victim's cookie.
 */
export function assertSameOrigin(request: Request) {
  if (request.method === "GET" || request.method === "HEAD" || request.method === "OPTIONS") return;
  const fetchSite = request.headers.get("Sec-Fetch-Site");
  const origin = request.headers.get("Origin");
  if (fetchSite === "cross-site") refuseCrossOrigin(request, origin ?? "cross-site");
  if (!origin) return;
  if (origin === "null") refuseCrossOrigin(request, origin);
  const url = new URL(request.url);
  const host = request.headers.get("X-Forwarded-Host") ?? request.headers.get("Host") ?? url.host;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    refuseCrossOrigin(request, origin);
  }
  if (originHost !== host) refuseCrossOrigin(request, origin);
}

/** Where an administrator without the required second factor may still go: the screen that sets it up. */
const MFA_SETUP_PATHS = new Set(["/settings", "/config"]);
export const MFA_SETUP_URL = "/settings?tab=seguranca&mfa=obrigatorio";

/**
 * While the clinic requires a second factor for administrators, an administrator without one
 * is sent to set it up (403 on the JSON API) before anything else.
 */
function assertMfaPolicy(request: Request, user: SessionUser) {
  if (user.role !== "admin" || !ensureClinicSettings().mfaRequiredForAdmins || hasVerifiedFactor(user.id)) return;
  const { pathname } = routeUrl(request);
  if (MFA_SETUP_PATHS.has(pathname)) return;
  if (isApiRequest(request)) throw data({ error: "Ative a autenticação em dois fatores para continuar." }, { status: 403 });
  throw redirect(MFA_SETUP_URL);
}

/** The signed-in user, or a redirect to /auth (401 for the JSON API). */
export async function requireUser(request: Request): Promise<SessionUser> {
  assertSameOrigin(request);
  const user = await getSessionUser(request);
  if (user) {
    assertMfaPolicy(request, user);
    return user;
  }
  if (isApiRequest(request)) throw data({ error: "Você precisa estar autenticado" }, { status: 401 });
  const url = routeUrl(request);
  const params = new URLSearchParams();
  if (request.method === "GET" && url.pathname !== "/") params.set("redirectTo", url.pathname + url.search);
  throw redirect(params.size ? `/auth?${params}` : "/auth");
}

/**
 * Refuses (403) what SPEC §6 does not let this user's role do: a pure check on the user the
 * request already looked up, so a loader or action reads the session once and checks as often
 * as it needs. An account still awaiting a role is told so.
 */
export function assertCan(user: SessionUser, area: Area, action: Action): void {
  if (can(user, area, action)) return;
  const message = user.role
    ? "Você não tem permissão para esta ação."
    : "Seu acesso ainda aguarda a liberação de um administrador.";
  throw data({ error: message }, { status: 403 });
}

/**
 * The signed-in user, when SPEC §6 lets their role do `action` in `area`; otherwise 403, also
 * for an account that still awaits a role (the shell shows it the waiting page).
 */
export async function requirePermission(request: Request, area: Area, action: Action): Promise<SessionUser> {
  const user = await requireUser(request);
  assertCan(user, area, action);
  return user;
}

/** Any signed-in account with a role (used where every role may act, such as Tasks). */
export async function requireActiveUser(request: Request): Promise<SessionUser & { role: NonNullable<SessionUser["role"]> }> {
  const user = await requireUser(request);
  if (user.role) return { ...user, role: user.role };
  throw data({ error: "Seu acesso ainda aguarda a liberação de um administrador." }, { status: 403 });
}

export type { SessionUser };
