/** Server side of CSV export: the download response. Build the body with `toCsv` (~/lib/csv). */

/**
 * A download of `csv` named `filename`. Non-ASCII names ('relatório.csv') are sent both as an
 * ASCII fallback and as RFC 5987 `filename*`; quotes, slashes and control characters are removed
 * so the header cannot be broken. Not cached: exports carry patient and financial data.
 */
export function csvResponse(filename: string, csv: string, init: ResponseInit = {}): Response {
  return new Response(csv, { ...init, headers: csvHeaders(csvFilename(filename), init.headers) });
}

/** The headers of a CSV download named `filename` (already made safe by `csvFilename`). */
export function csvHeaders(filename: string, init?: HeadersInit): Headers {
  const ascii = filename.normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/[^\x20-\x7e]/g, "_");
  let disposition = `attachment; filename="${ascii}"`;
  if (ascii !== filename) disposition += `; filename*=UTF-8''${encodeRFC5987(filename)}`;
  const headers = new Headers(init);
  headers.set("Content-Type", "text/csv; charset=utf-8");
  headers.set("Content-Disposition", disposition);
  headers.set("Cache-Control", "no-store");
  headers.set("X-Content-Type-Options", "nosniff");
  return headers;
}

/** A download name without quotes, slashes or control characters, ending in .csv. */
export function csvFilename(filename: string): string {
  const cleaned = filename
    .replace(/[\u0000-\u001f\u007f"\\/]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  const name = cleaned === "" || /^\.+$/.test(cleaned) ? "export" : cleaned;
  return /\.csv$/i.test(name) ? name : `${name}.csv`;
}

function encodeRFC5987(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
