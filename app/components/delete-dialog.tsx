import type { ReactNode } from "react";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { DialogFooter, UrlDialog } from "~/components/dialog";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { ButtonLink } from "~/components/ui/button";

/**
 * The delete confirmation of a list screen (`?delete=ID`). When the record cannot be deleted and
 * the loader already knows why (`refusal`), it says so instead of asking; when the server refuses
 * the delete (`error`: the action's message for the `delete` intent), the message shows in the
 * dialog, with JavaScript or without.
 */
export function DeleteDialog({
  title,
  message,
  id,
  closeTo,
  error,
  errorAction,
  refusal,
  refusalNote,
  refusalActions,
}: {
  title: string;
  message: ReactNode;
  id: number;
  closeTo: string;
  error?: string;
  /** A way out shown after the server's refusal (e.g. a link to edit the record instead). */
  errorAction?: ReactNode;
  refusal?: string | null;
  /** A sentence under the refusal explaining the alternative. */
  refusalNote?: ReactNode;
  /** Links offered beside 'Fechar' when the delete is refused (e.g. 'Editar cirurgia'). */
  refusalActions?: ReactNode;
}) {
  if (refusal) {
    return (
      <UrlDialog title={title} closeTo={closeTo} maxWidth="md">
        <Alert variant="destructive">
          <AlertDescription>
            <p role="alert">{refusal}</p>
          </AlertDescription>
        </Alert>
        {refusalNote ? <p className="text-sm text-muted-foreground">{refusalNote}</p> : null}
        <DialogFooter>
          <ButtonLink to={closeTo} variant="outline" preventScrollReset>
            Fechar
          </ButtonLink>
          {refusalActions}
        </DialogFooter>
      </UrlDialog>
    );
  }
  return (
    <ConfirmDialog
      title={title}
      message={
        <>
          {message}
          {error ? (
            <span role="alert" className="mt-2 block text-destructive">
              {error}
              {errorAction ? <> {errorAction}</> : null}
            </span>
          ) : null}
        </>
      }
      fields={{ intent: "delete", id }}
      closeTo={closeTo}
    />
  );
}

/** The error of a refused delete, from an action's answer (`{ intent: "delete", toast }`). */
export function deleteErrorOf(actionData: { intent?: string; toast?: { message: string } } | undefined) {
  return actionData?.intent === "delete" ? actionData.toast?.message : undefined;
}
