/**
 * A fake Google on 127.0.0.1 for the tests: the OAuth 2.0 consent page (which consents at once and
 * sends the browser back), the token endpoint (authorisation code with PKCE, refresh), revoke, the
 * Calendar list and events, Drive uploads and folders, and Forms create. The app reaches it through
 * GOOGLE_API_ROOT_URL with Google's own paths, so the real googleapis client runs; only the far end
 * is ours. Everything it received is in `requests`; what it holds is in `events`, `files`, `forms`.
 */
import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/** The app's Google settings for Vitest, beside GOOGLE_API_ROOT_URL pointing at the fake. */
export const FAKE_GOOGLE_ENV = {
  GOOGLE_CLIENT_ID: "client-id.apps.googleusercontent.com",
  GOOGLE_CLIENT_SECRET: "client-secret",
  GOOGLE_REDIRECT_URI: "http://localhost/google/oauth/callback",
  GOOGLE_TOKEN_KEY: "chave-de-teste-dos-tokens-google-0123456789",
};

/** Starts the fake and points the app at it; the returned function stops it and clears the settings. */
export async function useFakeGoogle(): Promise<{ fake: FakeGoogle; stop: () => Promise<void> }> {
  const fake = await startFakeGoogle();
  Object.assign(process.env, FAKE_GOOGLE_ENV, { GOOGLE_API_ROOT_URL: fake.url });
  return {
    fake,
    stop: async () => {
      await fake.close();
      for (const name of [...Object.keys(FAKE_GOOGLE_ENV), "GOOGLE_API_ROOT_URL"]) delete process.env[name];
    },
  };
}

export interface FakeGoogleRequest {
  method: string;
  path: string;
  /** Path without the query string. */
  pathname: string;
  authorization: string | undefined;
  body: Buffer;
}

export interface FakeEvent {
  calendarId: string;
  id: string;
  status: "confirmed" | "cancelled";
  summary?: string;
  start?: { dateTime?: string };
  end?: { dateTime?: string };
  [key: string]: unknown;
}

export interface FakeDriveFile {
  id: string;
  name: string;
  mimeType: string;
  parents: string[];
  size: number;
  content: Buffer;
}

interface AccessToken {
  expiresAt: number;
  refreshToken: string;
}

export interface FakeGoogle {
  url: string;
  port: number;
  requests: FakeGoogleRequest[];
  calendars: { id: string; summary: string; description?: string; timeZone: string; accessRole: string }[];
  /** Events by calendar and id (a deleted event stays, cancelled, as at Google). */
  events: Map<string, FakeEvent>;
  files: FakeDriveFile[];
  forms: { formId: string; title: string; responderUri: string }[];
  /** Refresh tokens issued and not revoked. */
  refreshTokens: Set<string>;
  /** Lifetime of the access tokens it issues, in seconds. */
  accessTokenTtl: number;
  /** The next consent answers with this error instead of a code (e.g. access_denied). */
  denyNext: string | null;
  /** Answers the next API calls (Calendar, Drive, Forms) with these statuses, in order. */
  failNext: number[];
  /** Requests to a path starting with this prefix. */
  count(method: string, prefix: string): number;
  close(): Promise<void>;
}

const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
};

const apiError = (res: http.ServerResponse, status: number, message: string) =>
  json(res, status, { error: { code: status, message, errors: [{ message, reason: "fake" }] } });

function base64url(value: unknown) {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

/** The parts of a multipart/related body: headers and content of each. */
function multipartParts(body: Buffer, contentType: string): { headers: string; content: Buffer }[] {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!boundary) return [];
  const text = body.toString("latin1");
  return text
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((raw) => {
      const part = raw.replace(/^\r\n/, "").replace(/\r\n$/, "");
      const split = part.indexOf("\r\n\r\n");
      return { headers: part.slice(0, split), content: Buffer.from(part.slice(split + 4), "latin1") };
    });
}

export async function startFakeGoogle(port = 0): Promise<FakeGoogle> {
  const requests: FakeGoogleRequest[] = [];
  const codes = new Map<string, { challenge: string; redirectUri: string; clientId: string; scope: string }>();
  const accessTokens = new Map<string, AccessToken>();
  let serial = 0;
  const next = (prefix: string) => `${prefix}${++serial}${randomBytes(4).toString("hex")}`;

  const fake: Omit<FakeGoogle, "url" | "port" | "close"> = {
    requests,
    calendars: [
      { id: "clinica@example.com", summary: "Clínica Sinapse", description: "Agenda principal da clínica", timeZone: "America/Sao_Paulo", accessRole: "owner" },
      { id: "cirurgias@group.calendar.google.com", summary: "Cirurgias", description: "", timeZone: "America/Sao_Paulo", accessRole: "writer" },
    ],
    events: new Map(),
    files: [],
    forms: [],
    refreshTokens: new Set(),
    accessTokenTtl: 3600,
    denyNext: null,
    failNext: [],
    count: (method, prefix) => requests.filter((r) => r.method === method && r.pathname.startsWith(prefix)).length,
  };

  function issueAccess(refreshToken: string) {
    const token = next("ya29.fake-access-");
    accessTokens.set(token, { expiresAt: Date.now() + fake.accessTokenTtl * 1000, refreshToken });
    return token;
  }

  function authorized(req: http.IncomingMessage) {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    const known = token ? accessTokens.get(token) : undefined;
    return !!known && known.expiresAt > Date.now() && fake.refreshTokens.has(known.refreshToken);
  }

  function handle(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer) {
    const url = new URL(req.url ?? "/", "http://fake.invalid");
    const path = url.pathname;
    const method = req.method ?? "GET";

    // ---- OAuth 2.0
    if (method === "GET" && path === "/o/oauth2/v2/auth") {
      const redirectUri = url.searchParams.get("redirect_uri") ?? "";
      const back = new URL(redirectUri);
      back.searchParams.set("state", url.searchParams.get("state") ?? "");
      if (fake.denyNext) {
        back.searchParams.set("error", fake.denyNext);
        fake.denyNext = null;
      } else {
        const code = next("4/fake-code-");
        codes.set(code, {
          challenge: url.searchParams.get("code_challenge") ?? "",
          redirectUri,
          clientId: url.searchParams.get("client_id") ?? "",
          scope: url.searchParams.get("scope") ?? "",
        });
        back.searchParams.set("code", code);
      }
      res.writeHead(302, { Location: back.toString() });
      res.end();
      return;
    }
    if (method === "POST" && path === "/token") {
      const form = new URLSearchParams(body.toString("utf8"));
      if (form.get("grant_type") === "authorization_code") {
        const code = codes.get(form.get("code") ?? "");
        codes.delete(form.get("code") ?? "");
        const verifier = form.get("code_verifier") ?? "";
        const challenge = createHash("sha256").update(verifier).digest("base64url");
        if (!code || code.challenge !== challenge || code.redirectUri !== form.get("redirect_uri") || code.clientId !== form.get("client_id")) {
          return json(res, 400, { error: "invalid_grant", error_description: "Bad code or code_verifier" });
        }
        const refreshToken = next("1//fake-refresh-");
        fake.refreshTokens.add(refreshToken);
        const idToken = `${base64url({ alg: "none" })}.${base64url({ email: "clinica@example.com", sub: "123" })}.`;
        return json(res, 200, {
          access_token: issueAccess(refreshToken),
          refresh_token: refreshToken,
          expires_in: fake.accessTokenTtl,
          scope: code.scope,
          token_type: "Bearer",
          id_token: idToken,
        });
      }
      if (form.get("grant_type") === "refresh_token") {
        const refreshToken = form.get("refresh_token") ?? "";
        if (!fake.refreshTokens.has(refreshToken)) return json(res, 400, { error: "invalid_grant" });
        return json(res, 200, { access_token: issueAccess(refreshToken), expires_in: fake.accessTokenTtl, token_type: "Bearer" });
      }
      return json(res, 400, { error: "unsupported_grant_type" });
    }
    if (method === "POST" && path === "/revoke") {
      const token = url.searchParams.get("token") ?? new URLSearchParams(body.toString("utf8")).get("token") ?? "";
      if (fake.refreshTokens.delete(token)) return json(res, 200, {});
      const access = accessTokens.get(token);
      if (access) {
        fake.refreshTokens.delete(access.refreshToken);
        return json(res, 200, {});
      }
      return json(res, 400, { error: "invalid_token" });
    }

    // ---- the APIs
    if (!authorized(req)) return apiError(res, 401, "Request had invalid authentication credentials.");
    const forced = fake.failNext.shift();
    if (forced) return apiError(res, forced, "Scripted failure");

    if (method === "GET" && path === "/calendar/v3/users/me/calendarList") {
      return json(res, 200, { kind: "calendar#calendarList", items: fake.calendars });
    }
    const events = /^\/calendar\/v3\/calendars\/([^/]+)\/events(?:\/([^/]+))?$/.exec(path);
    if (events) {
      const calendarId = decodeURIComponent(events[1]);
      const eventId = events[2] ? decodeURIComponent(events[2]) : null;
      const key = (id: string) => `${calendarId}/${id}`;
      if (method === "POST" && !eventId) {
        const input = JSON.parse(body.toString("utf8") || "{}") as Partial<FakeEvent>;
        const id = input.id ?? next("fakeevent");
        if (fake.events.has(key(id))) return apiError(res, 409, "The requested identifier already exists.");
        const event: FakeEvent = { ...input, calendarId, id, status: "confirmed" };
        fake.events.set(key(id), event);
        return json(res, 200, event);
      }
      const existing = eventId ? fake.events.get(key(eventId)) : undefined;
      if (!existing) return apiError(res, 404, "Not Found");
      if (method === "GET") return json(res, 200, existing);
      if (existing.status === "cancelled") return apiError(res, 410, "Resource has been deleted");
      if (method === "PATCH" || method === "PUT") {
        Object.assign(existing, JSON.parse(body.toString("utf8") || "{}"));
        return json(res, 200, existing);
      }
      if (method === "DELETE") {
        existing.status = "cancelled";
        res.writeHead(204);
        res.end();
        return;
      }
    }
    if (method === "POST" && (path === "/upload/drive/v3/files" || path === "/drive/v3/files")) {
      let metadata: { name?: string; mimeType?: string; parents?: string[] } = {};
      let content: Buffer = Buffer.alloc(0);
      if (path.startsWith("/upload")) {
        const parts = multipartParts(body, req.headers["content-type"] ?? "");
        metadata = JSON.parse(parts[0]?.content.toString("utf8") || "{}") as typeof metadata;
        content = parts[1]?.content ?? Buffer.alloc(0);
      } else {
        metadata = JSON.parse(body.toString("utf8") || "{}") as typeof metadata;
      }
      const file: FakeDriveFile = {
        id: next("fakefile"),
        name: metadata.name ?? "Untitled",
        mimeType: metadata.mimeType ?? "application/octet-stream",
        parents: metadata.parents ?? [],
        size: content.length,
        content,
      };
      fake.files.push(file);
      return json(res, 200, { id: file.id, name: file.name, mimeType: file.mimeType, webViewLink: `https://drive.google.com/file/d/${file.id}/view` });
    }
    if (method === "POST" && path === "/v1/forms") {
      const input = JSON.parse(body.toString("utf8") || "{}") as { info?: { title?: string } };
      const formId = next("fakeform");
      const form = { formId, title: input.info?.title ?? "", responderUri: `https://docs.google.com/forms/d/e/${formId}/viewform` };
      fake.forms.push(form);
      return json(res, 200, { formId, info: { title: form.title, documentTitle: form.title }, responderUri: form.responderUri });
    }
    return apiError(res, 404, `No fake for ${method} ${path}`);
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const path = req.url ?? "/";
      requests.push({ method: req.method ?? "", path, pathname: path.split("?")[0], authorization: req.headers.authorization, body });
      try {
        handle(req, res, body);
      } catch (error) {
        apiError(res, 500, String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const actual = (server.address() as AddressInfo).port;
  // The same object the handlers read, so a test's changes (accessTokenTtl, denyNext …) take effect.
  return Object.assign(fake, {
    url: `http://127.0.0.1:${actual}`,
    port: actual,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
