/**
 * Google Forms: 'Create Form' makes the form through the Forms API (forms.create copies only the
 * title; questions are added in Google Forms) and keeps it in google_forms
 * (docs/decisions/0020-google-integration.md).
 */
import type { forms_v1 } from "googleapis/build/src/apis/forms/v1";
import { googleForms } from "~db/schema";
import type { ListParams } from "~/lib/list-params";
import { recordAudit } from "./audit";
import { db } from "./db";
import { DomainError } from "./domain-error";
import { GOOGLE_MESSAGES, apiRoot, authorizedClient, googleConfig, googleLibrary, statusOfGoogleError } from "./google";
import { keysetList } from "./pagination";

export const FORM_CREATE_FAILED = "Falha ao criar formulário";

/** Creates the form at Google with this title and keeps its id and responder link. */
export async function createGoogleForm(userId: number, title: string) {
  const config = googleConfig();
  const auth = authorizedClient(config);
  if (!config || !auth) throw new DomainError(GOOGLE_MESSAGES.notConnected);
  const { forms_v1: forms } = googleLibrary.forms();
  const api = new forms.Forms({ auth, rootUrl: apiRoot(config) });
  let created: forms_v1.Schema$Form;
  try {
    ({ data: created } = await api.forms.create({ requestBody: { info: { title, documentTitle: title } } }));
  } catch (error) {
    console.warn(`Google Forms create failed (${statusOfGoogleError(error) ?? "no answer"})`);
    throw new DomainError(FORM_CREATE_FAILED);
  }
  if (!created.formId) throw new DomainError(FORM_CREATE_FAILED);
  const formId = created.formId;
  return db.transaction((tx) => {
    const row = tx
      .insert(googleForms)
      .values({ title, formId, responderUri: created.responderUri ?? `https://docs.google.com/forms/d/${formId}/viewform`, createdBy: userId })
      .returning()
      .get();
    recordAudit(tx, { userId, action: "create", entity: "google_form", entityId: row.id, changes: { title } });
    return row;
  });
}

/** google_forms newest first (SPEC §7), a page at a time through the created_at index. */
export function listGoogleForms(state: ListParams<"createdAt">) {
  return keysetList(
    googleForms,
    undefined,
    state,
    { key: googleForms.createdAt, id: googleForms.id, dir: state.dir },
    (at, orderBy, limit, offset) =>
      db
        .select({ id: googleForms.id, cursorKey: googleForms.createdAt, title: googleForms.title, formId: googleForms.formId, responderUri: googleForms.responderUri, createdAt: googleForms.createdAt })
        .from(googleForms)
        .where(at)
        .orderBy(...orderBy)
        .limit(limit)
        .offset(offset)
        .all(),
  );
}
