/** Recognises SQLite constraint failures, so a race the code's own checks missed becomes a field message, not a 500. */
export function isUniqueViolation(error: unknown, column?: string): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: string }).code;
  if (code !== "SQLITE_CONSTRAINT_UNIQUE" && code !== "SQLITE_CONSTRAINT_PRIMARYKEY") return false;
  return column ? error.message.includes(column) : true;
}

export function isForeignKeyViolation(error: unknown): boolean {
  return error instanceof Error && (error as { code?: string }).code === "SQLITE_CONSTRAINT_FOREIGNKEY";
}
