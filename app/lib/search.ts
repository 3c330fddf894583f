import { stripControlChars } from "./text";

/**
 * Search keys. Text is matched accent- and case-insensitively by comparing against a
 * normalised copy stored beside each searchable row (`search_text`), so the query can run
 * in SQL with a plain LIKE and no per-row function call.
 */
export function normalizeSearch(value: string | null | undefined): string {
  if (!value) return "";
  return stripControlChars(value, { singleLine: true })
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

/** Builds the stored search key from the row's searchable fields (digits of documents included). */
export function buildSearchText(...parts: Array<string | null | undefined>): string {
  const words: string[] = [];
  for (const part of parts) {
    const normalized = normalizeSearch(part);
    if (!normalized) continue;
    words.push(normalized);
    const digits = normalized.replace(/\D/g, "");
    // Documents and phones are also findable by their bare digits ("123.456" or "123456").
    if (digits.length >= 3 && digits !== normalized) words.push(digits);
  }
  return ` ${words.join(" | ")} `;
}

/** Escapes LIKE wildcards so a user's "%" or "_" match themselves (used with ESCAPE '\'). */
export function likeContains(query: string): string {
  return `%${normalizeSearch(query).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
