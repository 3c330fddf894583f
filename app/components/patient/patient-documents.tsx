import { FileText } from "~/components/icons";
import { Link } from "~/components/ui/link";
import { GoogleDriveSendButton } from "~/components/google-drive-send";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { formatDateTime } from "~/lib/dates";
import { DOCUMENT_CATEGORY_LABELS, labelFor } from "~/lib/enums";
import type { recentPatientDocuments } from "~/models/document.server";

/** The patient's latest documents (nothing when there are none), each with 'Enviar ao Drive' when connected, and a link to all of them. */
export function PatientDocuments({
  documents,
  total,
  patientId,
  drive,
}: {
  documents: ReturnType<typeof recentPatientDocuments>;
  total: number;
  patientId: number;
  drive: boolean;
}) {
  if (!documents.length) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Documentos</CardTitle>
      </CardHeader>
      <CardContent className="space-y-3">
        <ul className="divide-y text-sm" aria-label="Documentos recentes">
          {documents.map((doc) => (
            <li key={doc.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2">
              <FileText aria-hidden className="size-4 text-muted-foreground" />
              <Link to={`/files/${doc.id}/download`} reloadDocument className="font-medium break-all hover:underline">
                {doc.originalName}
              </Link>
              <Badge variant="outline">{labelFor(DOCUMENT_CATEGORY_LABELS, doc.category)}</Badge>
              <span className="text-muted-foreground tabular-nums">{formatDateTime(doc.createdAt)}</span>
              {drive ? <GoogleDriveSendButton documentId={doc.id} name={doc.originalName} returnTo={`/patients/${patientId}`} /> : null}
            </li>
          ))}
        </ul>
        <Link to={`/files?patient=${patientId}`} className="text-sm underline">
          Ver todos os {total} documentos
        </Link>
      </CardContent>
    </Card>
  );
}
