import { parseWithZod } from "@conform-to/zod/v4";
import type { z } from "zod";
import { parseDialog, parseId } from "~/lib/list-params";
import type { Area } from "~/lib/permissions";
import { requirePermission } from "./auth";
import { DomainError } from "./domain-error";
import { formFailure, notFound } from "./responses";
import { redirectWithToast } from "./toast";

export interface CrudActionOptions<Schema extends z.ZodType> {
  area: Area;
  schema: Schema;
  /** Where a successful write returns: the list with its search, page and filters. */
  back: string;
  /** The 404 message for an id that does not exist. */
  notFoundMessage: string;
  /** Toasts, SPEC §8: created/updated/deleted and the save/delete fallbacks. */
  messages: { created: string; updated: string; deleted: string; saveFailed: string; deleteFailed: string };
  create: (userId: number, input: z.output<Schema>) => unknown;
  update: (userId: number, id: number, input: z.output<Schema>) => unknown;
  remove: (userId: number, id: number) => unknown;
}

/**
 * The one action of a list screen: a hidden `intent` (create, update, delete) picks the branch;
 * each branch checks its own SPEC §6 permission, parses with the form's zod schema, writes through
 * the model and redirects with a toast. Bad input and domain rules come back as a 400 with the
 * form's errors; nothing here can turn bad input into a 500.
 */
export async function crudAction<Schema extends z.ZodType>(request: Request, formData: FormData, options: CrudActionOptions<Schema>) {
  const { area, messages } = options;
  const intent = String(formData.get("intent") ?? "");

  if (intent === "delete") {
    const user = await requirePermission(request, area, "delete");
    const id = parseId(formData.get("id")) ?? notFound(options.notFoundMessage);
    try {
      options.remove(user.id, id);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return formFailure(intent, undefined, error.message || messages.deleteFailed);
    }
    return redirectWithToast(options.back, { type: "success", message: messages.deleted });
  }

  if (intent !== "create" && intent !== "update") return formFailure(intent, undefined, "Ação desconhecida.");
  const user = await requirePermission(request, area, intent === "create" ? "create" : "edit");
  const submission = parseWithZod(formData, { schema: options.schema });
  if (submission.status !== "success") return formFailure(intent, submission.reply(), messages.saveFailed);

  try {
    if (intent === "create") {
      options.create(user.id, submission.value);
      return redirectWithToast(options.back, { type: "success", message: messages.created });
    }
    const id = parseId(formData.get("id")) ?? notFound(options.notFoundMessage);
    options.update(user.id, id, submission.value);
    return redirectWithToast(options.back, { type: "success", message: messages.updated });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const reply = error.field
      ? submission.reply({ fieldErrors: { [error.field]: [error.message] } })
      : submission.reply({ formErrors: [error.message] });
    return formFailure(intent, reply, error.message || messages.saveFailed);
  }
}

export interface DialogRecords<Editing, Deleting> {
  dialog: "new" | "edit" | "delete" | null;
  editing: Editing | null;
  deleting: Deleting | null;
}

/**
 * The URL-driven dialog of a list screen (`?dialog=new`, `?edit=ID`, `?delete=ID`): checks the
 * permission the dialog needs (403 otherwise) and loads its record (404 for a malformed or
 * unknown id), so the page renders the dialog open, with JavaScript or without.
 */
export async function resolveDialog<Editing, Deleting>(
  request: Request,
  options: {
    area: Area;
    notFoundMessage: string;
    loadEditing: (id: number) => Editing | null | undefined;
    loadDeleting: (id: number) => Deleting | null | undefined;
  },
): Promise<DialogRecords<Editing, Deleting>> {
  const dialog = parseDialog(new URL(request.url));
  if (dialog === "invalid") notFound(options.notFoundMessage);
  if (!dialog) return { dialog: null, editing: null, deleting: null };
  if (dialog.mode === "new") {
    await requirePermission(request, options.area, "create");
    return { dialog: "new", editing: null, deleting: null };
  }
  if (dialog.mode === "edit") {
    await requirePermission(request, options.area, "edit");
    const editing = options.loadEditing(dialog.id) ?? notFound(options.notFoundMessage);
    return { dialog: "edit", editing, deleting: null };
  }
  await requirePermission(request, options.area, "delete");
  const deleting = options.loadDeleting(dialog.id) ?? notFound(options.notFoundMessage);
  return { dialog: "delete", editing: null, deleting };
}
