import { data } from "react-router";

/** A form of this app is a few KB; anything this large is not one of ours (uploads get their own limit). */
export const MAX_FORM_BYTES = 256 * 1024;
/** The widest form has a few dozen fields; a flood of repeated names is refused before parsing. */
export const MAX_FORM_FIELDS = 500;

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

function refuse(status: 400 | 413 | 415, message: string): never {
  throw data({ error: message }, { status });
}

/** The request's body as bytes, read at most up to `limit` (413 past it, whatever Content-Length claims). */
export async function readBytes(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get("Content-Length"));
  if (Number.isFinite(declared) && declared > limit) refuse(413, "O formulário enviado é grande demais.");
  if (!request.body) return new Uint8Array(new ArrayBuffer(0));
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      refuse(413, "O formulário enviado é grande demais.");
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(new ArrayBuffer(size));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function countFields(body: string) {
  let count = body.length > 0 ? 1 : 0;
  for (let i = body.indexOf("&"); i !== -1; i = body.indexOf("&", i + 1)) count += 1;
  return count;
}

/**
 * Reads a posted form once, safely: only form encodings (415 otherwise), at most `maxBytes`
 * (413) and `MAX_FORM_FIELDS` fields (400), and a malformed body is a 400 with a clear message,
 * never an exception that becomes a 500. URL-encoded bodies are parsed in linear time.
 */
export async function readFormBody(request: Request, { maxBytes = MAX_FORM_BYTES } = {}): Promise<FormData> {
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
  if (!FORM_TYPES.includes(type)) {
    refuse(415, "Envie os dados pelo formulário da página (conteúdo não reconhecido).");
  }
  const bytes = await readBytes(request, maxBytes);

  if (type === "application/x-www-form-urlencoded") {
    const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
    if (countFields(text) > MAX_FORM_FIELDS) refuse(400, "O formulário enviado tem campos demais.");
    const form = new FormData();
    for (const [name, value] of new URLSearchParams(text)) form.append(name, value);
    return form;
  }

  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { "Content-Type": request.headers.get("Content-Type") ?? "" } }).formData();
  } catch {
    refuse(400, "O formulário enviado está malformado.");
  }
  let fields = 0;
  for (const _ of form.keys()) if (++fields > MAX_FORM_FIELDS) refuse(400, "O formulário enviado tem campos demais.");
  return form;
}

/**
 * The same form as a fresh url-encoded request, for code that insists on reading the body itself
 * (the login strategy) once `readFormBody` has checked it.
 */
export function requestWithForm(request: Request, form: FormData): Request {
  const body = new URLSearchParams();
  for (const [name, value] of form) if (typeof value === "string") body.append(name, value);
  const headers = new Headers(request.headers);
  headers.set("Content-Type", "application/x-www-form-urlencoded");
  headers.delete("Content-Length");
  return new Request(request.url, { method: request.method, headers, body, signal: request.signal });
}
