import { createCookie, redirect } from "react-router";
import { getCookieSecret } from "./secrets";
import type { Toast } from "~/lib/toast";

/**
 * Toasts travel in a short-lived signed flash cookie: the action sets it and redirects, the
 * root loader reads and clears it. They survive redirects and show without JavaScript too.
 */
let cookie: ReturnType<typeof createCookie> | undefined;
function toastCookie() {
  cookie ??= createCookie("sinapse_toast", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    maxAge: 60,
    secrets: [getCookieSecret()],
  });
  return cookie;
}

function isToast(value: unknown): value is Toast {
  if (!value || typeof value !== "object") return false;
  const t = value as Record<string, unknown>;
  return (t.type === "success" || t.type === "error" || t.type === "info") && typeof t.message === "string";
}

export async function toastHeader(toast: Toast): Promise<string> {
  return toastCookie().serialize(toast);
}

export async function redirectWithToast(url: string, toast: Toast, init?: ResponseInit): Promise<Response> {
  const headers = new Headers(init?.headers);
  headers.append("Set-Cookie", await toastHeader(toast));
  return redirect(url, { ...init, headers });
}

/** Reads the pending toast, if any, and the header that clears it. */
export async function readToast(request: Request): Promise<{ toast: Toast | null; headers: Headers }> {
  const headers = new Headers();
  const header = request.headers.get("Cookie");
  if (!header?.includes("sinapse_toast=")) return { toast: null, headers };
  const value: unknown = await toastCookie().parse(header);
  headers.append("Set-Cookie", await toastCookie().serialize("", { maxAge: 0 }));
  return { toast: isToast(value) ? value : null, headers };
}
