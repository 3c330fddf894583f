import { HardDriveUpload } from "~/components/icons";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";

/** 'Enviar ao Drive' beside a patient's document: a plain POST, back to `returnTo` with a toast. */
export function GoogleDriveSendButton({ documentId, name, returnTo }: { documentId: number; name: string; returnTo: string }) {
  return (
    <Form method="post" action={`/api/google/drive/send-document?returnTo=${encodeURIComponent(returnTo)}`} reloadDocument>
      <input type="hidden" name="intent" value="send" />
      <input type="hidden" name="id" value={documentId} />
      <Button type="submit" variant="ghost" size="sm" aria-label={`Enviar ${name} ao Google Drive do paciente`} title="Enviar ao Google Drive">
        <HardDriveUpload aria-hidden />
        Drive
      </Button>
    </Form>
  );
}
