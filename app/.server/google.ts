/**
 * The clinic's Google connection (docs/decisions/0020-google-integration.md): one OAuth 2.0
 * authorisation (offline access, consent prompt, PKCE, a single-use `state` bound to the session),
 * its tokens sealed with AES-256-GCM under GOOGLE_TOKEN_KEY, refreshed by the client and saved.
 *
 * Server-only: googleapis is large (≈200 MB on disk), so only the three APIs used are loaded,
 * each from its own module, never from a browser module, and only when a request first talks to
 * Google (`googleLibrary`).
 *
 * GOOGLE_API_ROOT_URL (unset in production) points every Google endpoint — authorisation, token,
 * revoke, Calendar, Drive, Forms — at one server with the paths unchanged: the tests' fake Google.
 */
import { createHash, randomBytes } from "node:crypto";
import type * as AuthLibrary from "google-auth-library";
import type { OAuth2Client } from "google-auth-library";
import type * as CalendarModule from "googleapis/build/src/apis/calendar/v3";
import type * as DriveModule from "googleapis/build/src/apis/drive/v3";
import type * as FormsModule from "googleapis/build/src/apis/forms/v1";
import { and, eq, lt } from "drizzle-orm";
import { googleConnections, googleOauthStates } from "~db/schema";
import { type PermissionSubject, can } from "~/lib/permissions";
import { recordAudit } from "./audit";
import { db, preparedQuery } from "./db";
import { DomainError } from "./domain-error";
import { intent } from "./intent-action";
import { onFirstUse } from "./on-first-use";
import { openSealed, sealText } from "./secrets";

/** Google's client libraries, each loaded by the first request that needs it (./on-first-use.ts). */
export const googleLibrary = {
  auth: onFirstUse<typeof AuthLibrary>("google-auth-library"),
  calendar: onFirstUse<typeof CalendarModule>("googleapis/build/src/apis/calendar/v3"),
  drive: onFirstUse<typeof DriveModule>("googleapis/build/src/apis/drive/v3"),
  forms: onFirstUse<typeof FormsModule>("googleapis/build/src/apis/forms/v1"),
};

export const GOOGLE_MESSAGES = {
  unauthenticated: "Você precisa estar autenticado",
  startFailed: "Falha ao iniciar autenticação",
  disconnectFailedPt: "Falha ao desconectar",
  disconnectFailed: "Failed to disconnect",
  uploadFailed: "Failed to upload file",
  uploaded: "File uploaded successfully",
  authFailed: "Falha na autenticação",
  callbackError: (error: string) => `Erro de autenticação: ${error}`,
  callbackMissing: "Código de autenticação ou estado não encontrado",
  callbackSession: "Sessão não encontrada",
  callbackFailed: "Falha ao completar autenticação",
  connected: "Google Calendar conectado com sucesso!",
  calendarsFailed: "Falha ao carregar calendários",
  filesFailed: "Failed to load files",
  formsFailed: "Failed to load forms",
  notConnected: "A conta Google da clínica não está conectada.",
  disconnected: "Conta Google desconectada",
} as const;

/** Calendar list and events, files the app created, forms the app created; who connected (e-mail). */
export const GOOGLE_SCOPES = [
  "openid",
  "email",
  "https://www.googleapis.com/auth/calendar.calendarlist.readonly",
  "https://www.googleapis.com/auth/calendar.events",
  "https://www.googleapis.com/auth/drive.file",
  "https://www.googleapis.com/auth/forms.body",
];

/** Where the callback may send the user back to (the integration pages). */
export const GOOGLE_PAGES = ["/google-calendar", "/google-drive", "/google-forms"] as const;
const STATE_TTL_MS = 10 * 60 * 1000;

export interface GoogleConfig {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** GOOGLE_API_ROOT_URL without a trailing slash, or null for Google itself. */
  rootUrl: string | null;
}

/** The OAuth client's settings and the token key, or null when any is missing (the pages then say so). */
export function googleConfig(env: NodeJS.ProcessEnv = process.env): GoogleConfig | null {
  const clientId = env.GOOGLE_CLIENT_ID?.trim();
  const clientSecret = env.GOOGLE_CLIENT_SECRET?.trim();
  const redirectUri = env.GOOGLE_REDIRECT_URI?.trim();
  if (!clientId || !clientSecret || !redirectUri || !env.GOOGLE_TOKEN_KEY?.trim()) return null;
  const rootUrl = env.GOOGLE_API_ROOT_URL?.trim().replace(/\/+$/, "") || null;
  return { clientId, clientSecret, redirectUri, rootUrl };
}

export const NOT_CONFIGURED_TEXT =
  "A integração com o Google não está configurada neste servidor. Peça ao administrador do sistema para definir GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET, GOOGLE_REDIRECT_URI e GOOGLE_TOKEN_KEY.";

/** A Google call that failed: `status` is Google's HTTP answer when there was one. */
export class GoogleError extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

export function statusOfGoogleError(error: unknown): number | null {
  if (error instanceof GoogleError) return error.status;
  const candidate = error as { status?: unknown; code?: unknown; response?: { status?: unknown } } | null;
  const status = candidate?.response?.status ?? candidate?.status ?? candidate?.code;
  return typeof status === "number" ? status : null;
}

// ------------------------------------------------------------------------------------- token sealing

function tokenKey(): Buffer {
  const material = process.env.GOOGLE_TOKEN_KEY?.trim();
  if (!material) throw new Error("GOOGLE_TOKEN_KEY is not set: the Google tokens cannot be sealed or read.");
  return createHash("sha256").update(`sinapse-google:${material}`).digest();
}

export function sealToken(token: string): string {
  return sealText(tokenKey(), token);
}

export function openToken(stored: string): string {
  return openSealed(tokenKey(), stored);
}

/**
 * Refuses to run without GOOGLE_TOKEN_KEY while a connection is stored: its tokens could be
 * neither used nor refreshed, and running on would only fail later and less clearly.
 */
export function assertTokenKeyForConnection() {
  if (process.env.GOOGLE_TOKEN_KEY?.trim()) return;
  let connected = false;
  try {
    connected = !!db.select({ id: googleConnections.id }).from(googleConnections).get();
  } catch {
    return; // Not migrated yet: nothing stored.
  }
  if (connected) {
    throw new Error(
      "A Google connection is stored but GOOGLE_TOKEN_KEY is not set. Set the key the tokens were sealed with (or remove the connection) and start again.",
    );
  }
}

// ------------------------------------------------------------------------------------------ clients

export function apiRoot(config: GoogleConfig): string | undefined {
  return config.rootUrl ?? undefined;
}

function newOAuthClient(config: GoogleConfig): OAuth2Client {
  const root = config.rootUrl;
  const { OAuth2Client } = googleLibrary.auth();
  return new OAuth2Client({
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    redirectUri: config.redirectUri,
    ...(root
      ? {
          endpoints: {
            oauth2AuthBaseUrl: `${root}/o/oauth2/v2/auth`,
            oauth2TokenUrl: `${root}/token`,
            oauth2RevokeUrl: `${root}/revoke`,
            tokenInfoUrl: `${root}/tokeninfo`,
          },
        }
      : {}),
  });
}

export interface ConnectionStatus {
  connected: boolean;
  email: string | null;
  connectedAt: Date | null;
}

const connectionQuery = preparedQuery(() =>
  db
    .select({ email: googleConnections.email, createdAt: googleConnections.createdAt, refreshToken: googleConnections.refreshToken })
    .from(googleConnections)
    .where(eq(googleConnections.id, 1))
    .prepare(),
);

export function connectionStatus(): ConnectionStatus {
  const row = connectionQuery().get();
  return { connected: !!row?.refreshToken, email: row?.email ?? null, connectedAt: row?.createdAt ?? null };
}

/**
 * An OAuth client holding the clinic's tokens, which refreshes the access token when it is about
 * to expire and saves what Google sends back (sealed). Null when not configured or not connected.
 */
export function authorizedClient(config: GoogleConfig | null = googleConfig()): OAuth2Client | null {
  if (!config) return null;
  const row = db.select().from(googleConnections).where(eq(googleConnections.id, 1)).get();
  if (!row?.refreshToken) return null;
  const client = newOAuthClient(config);
  client.setCredentials({
    refresh_token: openToken(row.refreshToken),
    access_token: row.accessToken ? openToken(row.accessToken) : undefined,
    expiry_date: row.tokenExpiresAt?.getTime(),
    scope: row.scope ?? undefined,
  });
  client.on("tokens", (tokens) => {
    db.update(googleConnections)
      .set({
        ...(tokens.access_token ? { accessToken: sealToken(tokens.access_token) } : {}),
        ...(tokens.refresh_token ? { refreshToken: sealToken(tokens.refresh_token) } : {}),
        ...(tokens.expiry_date ? { tokenExpiresAt: new Date(tokens.expiry_date) } : {}),
        ...(tokens.scope ? { scope: tokens.scope } : {}),
      })
      .where(eq(googleConnections.id, 1))
      .run();
  });
  return client;
}

// ---------------------------------------------------------------------------------------- the flow

function hashState(state: string) {
  return createHash("sha256").update(state).digest("hex");
}

/**
 * Starts an authorisation: a fresh `state` (kept as its hash, bound to this session and user, for
 * ten minutes) and PKCE verifier; returns Google's consent URL.
 */
export async function startAuthorization(
  config: GoogleConfig,
  { userId, sessionKey, returnTo, now = new Date() }: { userId: number; sessionKey: string; returnTo: string; now?: Date },
): Promise<string> {
  const client = newOAuthClient(config);
  const { codeVerifier, codeChallenge } = await client.generateCodeVerifierAsync();
  const state = randomBytes(32).toString("base64url");
  db.transaction((tx) => {
    tx.delete(googleOauthStates).where(lt(googleOauthStates.expiresAt, now)).run();
    tx.insert(googleOauthStates)
      .values({
        stateHash: hashState(state),
        sessionKey,
        userId,
        codeVerifier: sealToken(codeVerifier),
        returnTo: (GOOGLE_PAGES as readonly string[]).includes(returnTo) ? returnTo : "/google-calendar",
        expiresAt: new Date(now.getTime() + STATE_TTL_MS),
      })
      .run();
  });
  return client.generateAuthUrl({
    access_type: "offline",
    prompt: "consent",
    include_granted_scopes: true,
    scope: GOOGLE_SCOPES,
    state,
    code_challenge: codeChallenge,
    code_challenge_method: googleLibrary.auth().CodeChallengeMethod.S256,
  });
}

export type CallbackOutcome = { ok: true; email: string | null; returnTo: string } | { ok: false; message: string; status: 400 | 502 };

/** The e-mail in the ID token Google returned from the token endpoint (read, not verified: it came straight from Google over TLS). */
function emailOf(idToken: string | null | undefined): string | null {
  const payload = idToken?.split(".")[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { email?: unknown };
    return typeof claims.email === "string" ? claims.email.slice(0, 320) : null;
  } catch {
    return null;
  }
}

/**
 * Finishes an authorisation from the callback's query: the `state` must be one this session
 * started, unexpired and unused (it is consumed whatever happens next); then the code is exchanged
 * with its PKCE verifier and the tokens are stored sealed.
 */
export async function completeAuthorization(
  config: GoogleConfig,
  params: { code: string | null; state: string | null; error: string | null },
  { userId, sessionKey, now = new Date() }: { userId: number; sessionKey: string | null; now?: Date },
): Promise<CallbackOutcome> {
  if (params.error) return { ok: false, status: 400, message: GOOGLE_MESSAGES.callbackError(params.error.slice(0, 200)) };
  if (!params.code || !params.state) return { ok: false, status: 400, message: GOOGLE_MESSAGES.callbackMissing };
  const pending = db.delete(googleOauthStates).where(eq(googleOauthStates.stateHash, hashState(params.state))).returning().get();
  if (!pending || !sessionKey || pending.sessionKey !== sessionKey || pending.userId !== userId || pending.expiresAt.getTime() <= now.getTime()) {
    return { ok: false, status: 400, message: GOOGLE_MESSAGES.callbackSession };
  }
  const client = newOAuthClient(config);
  let tokens;
  try {
    ({ tokens } = await client.getToken({ code: params.code, codeVerifier: openToken(pending.codeVerifier) }));
  } catch (error) {
    console.warn(`Google token exchange failed (${statusOfGoogleError(error) ?? "no answer"})`);
    return { ok: false, status: 502, message: GOOGLE_MESSAGES.callbackFailed };
  }
  if (!tokens.refresh_token || !tokens.access_token) return { ok: false, status: 502, message: GOOGLE_MESSAGES.callbackFailed };
  const email = emailOf(tokens.id_token);
  const values = {
    email,
    accessToken: sealToken(tokens.access_token),
    refreshToken: sealToken(tokens.refresh_token),
    tokenExpiresAt: tokens.expiry_date ? new Date(tokens.expiry_date) : null,
    scope: tokens.scope ?? GOOGLE_SCOPES.join(" "),
    connectedBy: userId,
  };
  db.transaction((tx) => {
    tx.insert(googleConnections)
      .values({ id: 1, ...values, createdAt: now })
      .onConflictDoUpdate({ target: googleConnections.id, set: { ...values, createdAt: now } })
      .run();
    recordAudit(tx, { userId, action: "create", entity: "google_connection", entityId: 1, changes: { email } });
  });
  return { ok: true, email, returnTo: pending.returnTo };
}

/**
 * Disconnects: the refresh token is revoked at Google (which also ends its access tokens), then the
 * stored tokens are deleted. A token Google no longer knows (400) is deleted all the same; when
 * Google cannot be reached the connection stays and the caller says so.
 */
export async function disconnect(userId: number, config: GoogleConfig | null = googleConfig()): Promise<void> {
  const row = db.select().from(googleConnections).where(eq(googleConnections.id, 1)).get();
  if (!row) return;
  if (config && row.refreshToken) {
    try {
      await newOAuthClient(config).revokeToken(openToken(row.refreshToken));
    } catch (error) {
      const status = statusOfGoogleError(error);
      if (status !== 400) throw new GoogleError(GOOGLE_MESSAGES.disconnectFailedPt, status);
    }
  }
  db.transaction((tx) => {
    tx.delete(googleConnections).where(and(eq(googleConnections.id, 1))).run();
    recordAudit(tx, { userId, action: "delete", entity: "google_connection", entityId: 1, changes: { email: row.email } });
  });
}

// ------------------------------------------------------------------------------- the pages' pieces

/** What every integration page shows of the connection, and what this user may do with it. */
export function connectionView(user: PermissionSubject) {
  const status = connectionStatus();
  return {
    configured: !!googleConfig(),
    connected: status.connected,
    email: status.email,
    connectedAt: status.connectedAt,
    canConnect: can(user, "googleCalendar", "edit"),
  };
}

/** The pages' 'Desconectar' (confirmed in a dialog): the toast of a failure is the page's own SPEC §8 text. */
export function disconnectIntent(failure: string, back: string) {
  return intent({
    permission: ["googleCalendar", "edit"],
    run: async ({ user }) => {
      try {
        await disconnect(user.id);
      } catch (error) {
        if (error instanceof GoogleError) throw new DomainError(failure);
        throw error;
      }
    },
    success: GOOGLE_MESSAGES.disconnected,
    failure,
    back: () => back,
  });
}

// Evaluated when the server starts (the routes import this module): a stored connection without
// its key stops the start with a clear message instead of failing on the first Google call.
assertTokenKeyForConnection();
