import { data } from "react-router";
import { requirePermission } from "~/.server/auth";
import { readBytes } from "~/.server/form-body";
import { wakeCommsWorker } from "~/.server/whatsapp-worker";
import { SendError, sendQuickMessage } from "~/models/comms.server";
import { quickSendSchema } from "~/validation/comms";
import type { Route } from "./+types/comms-send";

export function loader() {
  return data({ error: "Use POST." }, { status: 405, headers: { Allow: "POST" } });
}

/**
 * POST /api/comms/send `{ patientId, templateId, variables }` (SPEC §7): queues the message for
 * delivery; errors as `{ error }` with 400 (bad input, no opt-in, template not approved …), 404
 * (unknown patient or template) or 403. The same rules as the screen's quick send.
 */
export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, "communication", "create");
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/json") return data({ error: "Envie JSON (Content-Type: application/json)." }, { status: 415 });
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(await readBytes(request, 64 * 1024)));
  } catch {
    return data({ error: "JSON inválido." }, { status: 400 });
  }
  const parsed = quickSendSchema.safeParse(body);
  if (!parsed.success) return data({ error: parsed.error.issues[0]?.message ?? "Dados inválidos." }, { status: 400 });
  try {
    const { id, configured } = sendQuickMessage(user.id, parsed.data);
    wakeCommsWorker();
    return Response.json({ message: { id, status: "queued" }, configured }, { status: 201 });
  } catch (error) {
    if (error instanceof SendError) return data({ error: error.message, missing: error.missing.length ? error.missing : undefined }, { status: error.status });
    throw error;
  }
}
