import { data, redirect } from "react-router";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { type Action, type Area, can } from "~/lib/permissions";
import { verifyLogin } from "./credentials";
import { loginSchema } from "~/validation/auth";
import { type SessionUser, getSessionUser } from "./session";

export class LoginError extends Error {}

/** Failed logins per e-mail within the window; after too many the e-mail is locked for a while. */
const MAX_FAILURES = 5;
const FAILURE_WINDOW_MS = 15 * 60 * 1000;
const failures = new Map<string, { count: number; since: number }>();

function checkLockout(email: string, now: number) {
  const entry = failures.get(email);
  if (entry && now - entry.since > FAILURE_WINDOW_MS) failures.delete(email);
  else if (entry && entry.count >= MAX_FAILURES) {
    throw new LoginError("Muitas tentativas de acesso. Aguarde alguns minutos e tente novamente.");
  }
}

function noteFailure(email: string, now: number) {
  // Bounded memory: a flood of made-up e-mails cannot grow the table without limit.
  if (failures.size >= 10_000) {
    for (const [key, value] of failures) if (now - value.since > FAILURE_WINDOW_MS) failures.delete(key);
    if (failures.size >= 10_000) failures.clear();
  }
  const entry = failures.get(email);
  if (entry) entry.count += 1;
  else failures.set(email, { count: 1, since: now });
}

export const authenticator = new Authenticator<number>();
authenticator.use(
  new FormStrategy(async ({ form }) => {
    const parsed = loginSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success) throw new LoginError("Informe e-mail e senha válidos.");
    const email = parsed.data.email.toLowerCase();
    const now = Date.now();
    checkLockout(email, now);
    const userId = await verifyLogin(email, parsed.data.password);
    if (userId === null) {
      noteFailure(email, now);
      throw new LoginError("E-mail ou senha incorretos.");
    }
    failures.delete(email);
    return userId;
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
  return new URL(request.url).pathname.startsWith("/api/");
}

function refuseCrossOrigin(request: Request, origin: string): never {
  // One line, not a stack trace: a refused forgery is expected traffic, not a server fault.
  console.warn(`refused cross-origin ${request.method} ${new URL(request.url).pathname} from ${origin.slice(0, 200)}`);
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

/** The signed-in user, or a redirect to /auth (401 for the JSON API). */
export async function requireUser(request: Request): Promise<SessionUser> {
  assertSameOrigin(request);
  const user = await getSessionUser(request);
  if (user) return user;
  if (isApiRequest(request)) throw data({ error: "Você precisa estar autenticado" }, { status: 401 });
  const url = new URL(request.url);
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
