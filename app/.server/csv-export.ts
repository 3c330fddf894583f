import type { Column, SQL } from "drizzle-orm";
import { type CsvCell, csvCell } from "~/lib/csv";
import { todayIsoInClinic } from "~/lib/dates";
import { recordAudit } from "./audit";
import type { SessionUser } from "./auth";
import { csvFilename, csvHeaders } from "./csv";
import { databasePath, db } from "./db";
import { exportRows } from "./export-rows";

/**
 * The longest the server writes rows into the file in one go (ms); between two such steps it
 * answers other requests. A row of the patients' export takes about 20 µs to write.
 */
const STEP_MS = 2;

export interface CsvColumn<Row> {
  header: string;
  value: (row: Row) => CsvCell;
}

/** A select built by a model (no limit): its SQL, and the row type its `.all()` would give. */
interface ExportQuery<Row> {
  toSQL(): { sql: string; params: unknown[] };
  all(): Row[];
}

/** The fields a model selected, in select order: each a column (mapped from its stored form) or SQL. */
type ExportFields = Record<string, Column | SQL | SQL.Aliased>;

function mapperOf(field: ExportFields[string]): (value: unknown) => unknown {
  const column = field as Partial<Column>;
  return typeof column.mapFromDriverValue === "function"
    ? (value) => (value === null ? null : column.mapFromDriverValue!(value))
    : (value) => value;
}

/**
 * A list exported as CSV for Brazilian Excel (BOM, ';', decimal comma, formula guard; see
 * ~/lib/csv), streamed: the rows are read in a worker thread of their own (`exportRows`), from one
 * consistent snapshot, and written here a step of at most STEP_MS at a time, so a million-row
 * export holds neither the table in memory nor the server (a search that SQLite tests row by row
 * held it for as long as it passed over rows without a match: 780 ms for one that matched none of a
 * million appointments). The export, its search and its filters go to the audit log.
 */
export function csvExport<Row>(options: {
  user: SessionUser;
  /** The audit entity ("patient", "appointment" …) and the file's name before the date. */
  entity: string;
  filename: string;
  fields: ExportFields;
  query: ExportQuery<Row>;
  columns: CsvColumn<Row>[];
  /** The search and filters the export applied, as the audit log keeps them. */
  criteria: Record<string, unknown>;
}): Response {
  const { sql, params } = options.query.toSQL();
  const keys = Object.keys(options.fields);
  const mappers = keys.map((key) => mapperOf(options.fields[key]));
  recordAudit(db, { userId: options.user.id, action: "export", entity: options.entity, changes: { format: "csv", ...options.criteria } });

  const encoder = new TextEncoder();
  let rows: ReturnType<typeof exportRows> | undefined;
  /** The batch being written, and how far. */
  let batch: unknown[][] = [];
  let written = 0;

  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`\uFEFF${options.columns.map((c) => csvCell(c.header)).join(";")}\r\n`));
    },
    async pull(controller) {
      // The worker starts when the rows are first asked for: a response never read (a HEAD request,
      // a caller that only wanted the status) starts none.
      rows ??= exportRows(databasePath, sql, params);
      // Let other requests run between steps (a batch already read would otherwise be written at once).
      await new Promise((resolve) => setImmediate(resolve));
      if (written === batch.length) {
        const next = await rows.next();
        if (!next) {
          controller.close();
          return;
        }
        batch = next;
        written = 0;
      }
      const started = performance.now();
      let chunk = "";
      do {
        const values = batch[written++];
        const row = Object.fromEntries(keys.map((key, i) => [key, mappers[i](values[i])])) as Row;
        chunk += `${options.columns.map((c) => csvCell(c.value(row))).join(";")}\r\n`;
      } while (written < batch.length && performance.now() - started < STEP_MS);
      controller.enqueue(encoder.encode(chunk));
    },
    cancel: () => rows?.close(),
  });

  return new Response(stream, { headers: csvHeaders(csvFilename(`${options.filename}-${todayIsoInClinic()}`)) });
}
