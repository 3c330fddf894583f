import Database from "better-sqlite3";
import type { Column, SQL } from "drizzle-orm";
import { type CsvCell, csvCell } from "~/lib/csv";
import { todayIsoInClinic } from "~/lib/dates";
import { recordAudit } from "./audit";
import type { SessionUser } from "./auth";
import { csvFilename, csvHeaders } from "./csv";
import { databasePath, db, registerFunctions } from "./db";

/** Rows read and written per step; between steps the server answers other requests. */
const BATCH_ROWS = 500;

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
 * ~/lib/csv), streamed: the rows come from a read-only connection of their own, a batch at a time,
 * so a 200 000-row export neither holds the table in memory nor blocks the server, and it reads
 * one consistent snapshot. The export, its search and its filters go to the audit log.
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
  let connection: Database.Database | undefined;
  let rows: IterableIterator<unknown[]> | undefined;
  const close = () => {
    rows?.return?.();
    if (connection?.open) connection.close();
  };

  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      connection = new Database(databasePath, { readonly: true, fileMustExist: true });
      registerFunctions(connection);
      rows = connection.prepare(sql).raw(true).iterate(...params) as IterableIterator<unknown[]>;
      controller.enqueue(encoder.encode(`\uFEFF${options.columns.map((c) => csvCell(c.header)).join(";")}\r\n`));
    },
    async pull(controller) {
      // Let other requests run between batches.
      await new Promise((resolve) => setImmediate(resolve));
      let chunk = "";
      for (let n = 0; n < BATCH_ROWS; n += 1) {
        const next = rows!.next();
        if (next.done) {
          if (chunk) controller.enqueue(encoder.encode(chunk));
          close();
          controller.close();
          return;
        }
        const row = Object.fromEntries(keys.map((key, i) => [key, mappers[i](next.value[i])])) as Row;
        chunk += `${options.columns.map((c) => csvCell(c.value(row))).join(";")}\r\n`;
      }
      controller.enqueue(encoder.encode(chunk));
    },
    cancel: close,
  });

  return new Response(stream, { headers: csvHeaders(csvFilename(`${options.filename}-${todayIsoInClinic()}`)) });
}
