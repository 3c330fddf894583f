import { Alert, AlertDescription } from "~/components/ui/alert";

/** A report's refused filter (a bad date or id typed in the URL): the API's message, above an empty table. */
export function ReportError({ error }: { error: string | null }) {
  return error ? (
    <Alert variant="destructive">
      <AlertDescription>{error}</AlertDescription>
    </Alert>
  ) : null;
}
