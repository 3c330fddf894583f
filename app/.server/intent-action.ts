import { parseWithZod } from "@conform-to/zod/v4";
import type { z } from "zod";
import { parseDialog, parseId } from "~/lib/list-params";
import type { Action, Area } from "~/lib/permissions";
import type { Toast } from "~/lib/toast";
import { withAuditRequest } from "./audit";
import { type SessionUser, assertCan } from "./auth";
import { DomainError } from "./domain-error";
import { readFormBody } from "./form-body";
import { formFailure, notFound } from "./responses";
import { redirectWithToast } from "./toast";

export interface IntentContext<Input> {
  user: SessionUser;
  /** The form parsed by the intent's schema (undefined for an intent without one). */
  input: Input;
  /** The record named by the form's `id` field (intents declared with `record: true`). */
  id: number;
  form: FormData;
  request: Request;
}

export interface IntentDeclaration<Input> {
  /** SPEC §6: what the user's role must be allowed to do for this intent. */
  permission: readonly [Area, Action];
  /** The form's zod schema (the same module the browser validates with). */
  schema?: z.ZodType<Input>;
  /** The form's `id` names a record; a missing or malformed id is a 404. */
  record?: boolean;
  /** Fields never sent back to the browser on a 400 (passwords). */
  hideFields?: string[];
  /** The write. A thrown DomainError becomes a field or form message; a returned Response is sent as is. */
  run: (context: IntentContext<Input>) => unknown;
  /** The toast after a successful write (SPEC §8). */
  success: string | Toast | ((context: IntentContext<Input>) => Toast);
  /** The toast of a refused write, when the error carries no message of its own. */
  failure?: string;
  /** Where a successful write returns, when not the screen's list. */
  back?: (context: IntentContext<Input>) => string;
}

/** One row of an intent table; the schema's type is checked here, where the intent is written. */
export type Intent = IntentDeclaration<unknown>;

export function intent<Input = undefined>(declaration: IntentDeclaration<Input>): Intent {
  return declaration as Intent;
}

export interface DispatchOptions {
  /** Where a successful write returns: the list with its search, page and filters. */
  back: string;
  /** The 404 message for a record id that does not exist or is malformed. */
  notFoundMessage?: string;
  intents: Record<string, Intent>;
}

function toastOf<Input>(success: IntentDeclaration<Input>["success"], context: IntentContext<Input>): Toast {
  if (typeof success === "string") return { type: "success", message: success };
  return typeof success === "function" ? success(context) : success;
}

/**
 * The one action of every screen. The route's guard has already looked the user up; this reads
 * the body once (form encodings only, size- and field-capped: 415/413/400), picks the intent from
 * the hidden `intent` field (400 when unknown), checks its permission (403), its record id (404)
 * and its schema (400 with the form's errors), runs the write and redirects with a toast.
 * Bad input and domain rules come back as a 400 the form can show; never as a 500.
 */
export async function dispatchIntent(request: Request, user: SessionUser, options: DispatchOptions) {
  const form = await readFormBody(request);
  const name = String(form.get("intent") ?? "");
  const declaration = Object.hasOwn(options.intents, name) ? options.intents[name] : undefined;
  if (!declaration) return formFailure(name, undefined, "Ação desconhecida.");

  assertCan(user, ...declaration.permission);
  const id = declaration.record ? (parseId(form.get("id")) ?? notFound(options.notFoundMessage)) : 0;

  const submission = declaration.schema ? parseWithZod(form, { schema: declaration.schema }) : undefined;
  const reply = (errors?: { fieldErrors?: Record<string, string[]>; formErrors?: string[] }) =>
    submission?.reply({ ...errors, hideFields: declaration.hideFields });
  if (submission && submission.status !== "success") return formFailure(name, reply(), declaration.failure);

  const context: IntentContext<unknown> = { user, input: submission?.value, id, form, request };
  try {
    const result = await withAuditRequest(request, () => declaration.run(context));
    if (result instanceof Response) return result;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const errors = error.field ? { fieldErrors: { [error.field]: [error.message] } } : { formErrors: [error.message] };
    return formFailure(name, reply(errors), error.message || declaration.failure);
  }
  return redirectWithToast(declaration.back?.(context) ?? options.back, toastOf(declaration.success, context));
}

/** The create/update/delete intents of a list screen, from its model's three writes and SPEC §8 messages. */
export function crudIntents<Input>(options: {
  area: Area;
  schema: z.ZodType<Input>;
  messages: { created: string; updated: string; deleted: string; saveFailed: string; deleteFailed: string };
  create: (userId: number, input: Input) => unknown;
  update: (userId: number, id: number, input: Input) => unknown;
  remove: (userId: number, id: number) => unknown;
}): Record<"create" | "update" | "delete", Intent> {
  const { area, schema, messages } = options;
  return {
    create: intent({
      permission: [area, "create"],
      schema,
      run: ({ user, input }) => options.create(user.id, input),
      success: messages.created,
      failure: messages.saveFailed,
    }),
    update: intent({
      permission: [area, "edit"],
      schema,
      record: true,
      run: ({ user, id, input }) => options.update(user.id, id, input),
      success: messages.updated,
      failure: messages.saveFailed,
    }),
    delete: intent({
      permission: [area, "delete"],
      record: true,
      run: ({ user, id }) => options.remove(user.id, id),
      success: messages.deleted,
      failure: messages.deleteFailed,
    }),
  };
}

export interface DialogRecords<Editing, Deleting> {
  dialog: "new" | "edit" | "delete" | null;
  editing: Editing | null;
  deleting: Deleting | null;
}

/**
 * The URL-driven dialog of a list screen (`?dialog=new`, `?edit=ID`, `?delete=ID`): checks the
 * permission the dialog needs on the user the loader already has (403 otherwise) and loads its
 * record (404 for a malformed or unknown id), so the page renders the dialog open, with or
 * without JavaScript.
 */
export function resolveDialog<Editing, Deleting>(
  url: URL,
  user: SessionUser,
  options: {
    area: Area;
    notFoundMessage: string;
    loadEditing: (id: number) => Editing | null | undefined;
    loadDeleting: (id: number) => Deleting | null | undefined;
  },
): DialogRecords<Editing, Deleting> {
  const dialog = parseDialog(url);
  if (dialog === "invalid") notFound(options.notFoundMessage);
  if (!dialog) return { dialog: null, editing: null, deleting: null };
  if (dialog.mode === "new") {
    assertCan(user, options.area, "create");
    return { dialog: "new", editing: null, deleting: null };
  }
  if (dialog.mode === "edit") {
    assertCan(user, options.area, "edit");
    const editing = options.loadEditing(dialog.id) ?? notFound(options.notFoundMessage);
    return { dialog: "edit", editing, deleting: null };
  }
  assertCan(user, options.area, "delete");
  const deleting = options.loadDeleting(dialog.id) ?? notFound(options.notFoundMessage);
  return { dialog: "delete", editing: null, deleting };
}
