import { Upload } from "~/components/icons";
import { type FormEvent, useId, useState } from "react";
import { useNavigate } from "react-router";
import { Button } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import { IMPORT_MESSAGES } from "~/lib/fee-statement";
import type { Toast } from "~/lib/toast";
import { useToastEffect } from "~/lib/use-toast-effect";

export const STATEMENT_UPLOAD_ACTION = "/financeiro/importar-honorarios/enviar";

/**
 * A statement's upload form. Without JavaScript it is a plain multipart POST (the server answers
 * with a redirect and its toast); with it, the file goes by XMLHttpRequest so the bar shows the
 * real progress of the upload, and the server's JSON answer says where to go next.
 */
export function StatementUploadForm({ intent, label, accept, submitLabel, hint }: { intent: "upload" | "preview"; label: string; accept: string; submitLabel: string; hint: string }) {
  const id = useId();
  const navigate = useNavigate();
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [toast, setToast] = useState<Toast | null>(null);
  useToastEffect(toast);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const request = new XMLHttpRequest();
    request.open("POST", form.action);
    request.setRequestHeader("X-Requested-With", "XMLHttpRequest");
    request.upload.onprogress = (e) => {
      if (e.lengthComputable) setProgress(Math.round((e.loaded / e.total) * 100));
    };
    const failed = (message: string, answer?: Toast) => {
      setProgress(null);
      setError(message);
      setToast(answer ?? { type: "error", message: IMPORT_MESSAGES.failure, description: message });
    };
    request.onload = () => {
      type Answer = { location?: string; error?: string; toast?: Toast | null };
      let body: Answer | null;
      try {
        body = JSON.parse(request.responseText) as Answer;
      } catch {
        body = null;
      }
      if (request.status < 300 && body?.location) {
        setProgress(null);
        setError(null);
        form.reset();
        if (body.toast) setToast(body.toast);
        void navigate(body.location);
      } else {
        failed(body?.error ?? IMPORT_MESSAGES.failure, body?.toast ?? undefined);
      }
    };
    // The server cuts off a file over the limit mid-upload; the browser may see only a closed connection.
    request.onerror = () => failed(`${IMPORT_MESSAGES.failure}: o envio foi interrompido (o limite é de 20 MB).`);
    setError(null);
    setProgress(0);
    request.send(new FormData(form));
  }

  const busy = progress !== null;
  return (
    <form method="post" action={STATEMENT_UPLOAD_ACTION} encType="multipart/form-data" onSubmit={onSubmit} className="space-y-3" aria-busy={busy}>
      <input type="hidden" name="intent" value={intent} />
      <div className="space-y-1">
        <Label htmlFor={`${id}-file`}>{label}</Label>
        <input
          id={`${id}-file`}
          name="file"
          type="file"
          accept={accept}
          required
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
          className="block w-full text-sm file:mr-3 file:rounded-md file:border file:bg-background file:px-3 file:py-1.5"
        />
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      </div>
      {busy ? (
        <div className="space-y-1">
          <progress max={100} value={progress} aria-labelledby={`${id}-progress`} className="h-2 w-full" />
          <p id={`${id}-progress`} className="text-xs text-muted-foreground" role="status">
            Enviando… {progress}%
          </p>
        </div>
      ) : null}
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
      <Button type="submit" disabled={busy}>
        <Upload aria-hidden className="size-4" />
        {submitLabel}
      </Button>
    </form>
  );
}
