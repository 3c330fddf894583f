import { and, asc, eq, ne } from "drizzle-orm";
import { messageTemplates } from "~db/schema";
import { diffChanges, recordAudit } from "~/.server/audit";
import { cachedUntilWrite } from "~/.server/data-cache";
import { db } from "~/.server/db";
import { DomainError } from "~/.server/domain-error";
import { sentAsJson } from "~/.server/sent-as-json";
import { isUniqueViolation } from "~/.server/sql-errors";
import { optionsOf } from "./filter-options.server";
import { TEMPLATE_CATEGORIES, type TemplateCategory, type TemplateStatus } from "~/lib/enums";
import type { TemplateInput } from "~/validation/comms";

/** A template rule the person can fix (a Meta name already mapped …), beside its field. */
export class TemplateError extends DomainError<keyof TemplateInput & string> {}

const FIELDS = {
  id: messageTemplates.id,
  title: messageTemplates.title,
  category: messageTemplates.category,
  status: messageTemplates.status,
  body: messageTemplates.body,
  metaName: messageTemplates.metaName,
  metaLanguage: messageTemplates.metaLanguage,
};
export type TemplateRow = { id: number; title: string; category: TemplateCategory; status: TemplateStatus; body: string; metaName: string | null; metaLanguage: string };

/** Every template (a clinic has dozens, not thousands), grouped by the five categories of SPEC §9 in order. */
export function templatesByCategory(): { category: TemplateCategory; templates: TemplateRow[] }[] {
  // Kept until the next write: the communication centre shows them on every view (read-only to
  // callers), and sends them as JSON made once.
  return cachedUntilWrite("templates-by-category", () => {
    const rows = db.select(FIELDS).from(messageTemplates).orderBy(asc(messageTemplates.category), asc(messageTemplates.title)).all();
    return sentAsJson(TEMPLATE_CATEGORIES.map((category) => ({ category, templates: rows.filter((row) => row.category === category) })));
  });
}

/** SPEC §7 GET /api/comms/templates[?status=…]. Kept until the next write, as `templatesByCategory`. */
export function listTemplates(status?: TemplateStatus | null): TemplateRow[] {
  return cachedUntilWrite(`templates:${status ?? ""}`, () =>
    db
      .select(FIELDS)
      .from(messageTemplates)
      .where(status ? eq(messageTemplates.status, status) : undefined)
      .orderBy(asc(messageTemplates.title))
      .all(),
  );
}

/**
 * The approved templates as the send forms offer them (id, title, body): the same array from one
 * page to the next until a template is written (`optionsOf`), its JSON made once.
 */
export function approvedTemplateChoices() {
  return optionsOf(listTemplates("aprovado"), templateChoice);
}
function templateChoice({ id, title, body }: TemplateRow) {
  return { id, title, body };
}

export function getTemplate(id: number): TemplateRow | null {
  return db.select(FIELDS).from(messageTemplates).where(eq(messageTemplates.id, id)).get() ?? null;
}

function assertMetaFree(input: TemplateInput, exceptId?: number) {
  if (!input.metaName) return;
  const clash = db
    .select({ title: messageTemplates.title })
    .from(messageTemplates)
    .where(
      and(
        eq(messageTemplates.metaName, input.metaName),
        eq(messageTemplates.metaLanguage, input.metaLanguage),
        exceptId ? ne(messageTemplates.id, exceptId) : undefined,
      ),
    )
    .get();
  if (clash) throw new TemplateError(`Este template da Meta já está vinculado a "${clash.title}".`, "metaName");
}

function rethrowClash(error: unknown): never {
  if (isUniqueViolation(error, "meta_name")) throw new TemplateError("Este template da Meta já está vinculado a outro template.", "metaName");
  throw error;
}

export function createTemplate(userId: number, input: TemplateInput): number {
  assertMetaFree(input);
  try {
    return db.transaction((tx) => {
      const id = tx.insert(messageTemplates).values(input).returning({ id: messageTemplates.id }).get().id;
      recordAudit(tx, { userId, action: "create", entity: "message_template", entityId: id, changes: input });
      return id;
    });
  } catch (error) {
    rethrowClash(error);
  }
}

export function updateTemplate(userId: number, id: number, input: TemplateInput) {
  assertMetaFree(input, id);
  try {
    db.transaction((tx) => {
      const before = tx.select(FIELDS).from(messageTemplates).where(eq(messageTemplates.id, id)).get();
      if (!before) throw new TemplateError("Template não encontrado.");
      tx.update(messageTemplates).set(input).where(eq(messageTemplates.id, id)).run();
      recordAudit(tx, { userId, action: "update", entity: "message_template", entityId: id, changes: diffChanges(before, input) });
    });
  } catch (error) {
    rethrowClash(error);
  }
}
