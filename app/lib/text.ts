/**
 * Control characters never belong in what a person types: a NUL or an escape byte in a name, a
 * search or a URL parameter is junk (or an attack) and must not reach the database or the search
 * index. Tabs and line breaks are kept where text may span lines (notes, histories).
 */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
const LINE_BREAKS_AND_TABS = /[\t\n\r\u2028\u2029]+/g;

/** `text` without control characters; line breaks and tabs survive unless `singleLine` (then a space). */
export function stripControlChars(text: string, { singleLine = false }: { singleLine?: boolean } = {}): string {
  const cleaned = text.replace(CONTROL, "");
  return singleLine ? cleaned.replace(LINE_BREAKS_AND_TABS, " ") : cleaned;
}

/** A value from a query string, cleaned of control characters, trimmed and capped. */
export function cleanQueryText(value: string | null | undefined, max = 100): string {
  if (!value) return "";
  return stripControlChars(value, { singleLine: true }).trim().slice(0, max).trim();
}

/** A file's size for a list: '12 KB' (at least 1), '3,4 MB'. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024)).toLocaleString("pt-BR")} KB`;
  return `${(bytes / (1024 * 1024)).toLocaleString("pt-BR", { maximumFractionDigits: 1 })} MB`;
}

const countFormat = new Intl.NumberFormat("pt-BR");

/** A count as the clinic reads it: '1.234'. */
export function formatCount(n: number): string {
  return countFormat.format(n);
}

/** A count with its noun: '1 cirurgia', '1.234 cirurgias'. */
export function plural(n: number, one: string, many: string): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}
