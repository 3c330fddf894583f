import type { ReactNode } from "react";
import { Form, useNavigation } from "react-router";

import { ButtonLink, Button, type ButtonVariant } from "~/components/ui/button";
import { DialogFooter, UrlDialog } from "./dialog";

export interface ConfirmDialogProps {
  /** Render the dialog (default true), e.g. `searchParams.has("delete")`. */
  open?: boolean;
  title: ReactNode;
  /** The question, e.g. "Tem certeza de que deseja excluir este paciente?". */
  message: ReactNode;
  /** Hidden inputs posted with the form, e.g. `{ intent: "delete", id: 5 }`. */
  fields: Record<string, string | number>;
  /** The current URL without the dialog's params. */
  closeTo: string;
  /** Where to post (defaults to the current route's action). */
  action?: string;
  confirmLabel?: string;
  /** Shown on the button while the request is under way ("Excluindo..." for "Excluir"). */
  pendingLabel?: string;
  cancelLabel?: string;
  confirmVariant?: ButtonVariant;
}

/**
 * "Are you sure?" built on UrlDialog: a POST form with hidden `fields`, a destructive submit and a
 * cancel link. Works without JavaScript; with it, the submit is disabled while the request runs.
 */
export function ConfirmDialog({
  open = true,
  title,
  message,
  fields,
  closeTo,
  action,
  confirmLabel = "Excluir",
  pendingLabel,
  cancelLabel = "Cancelar",
  confirmVariant = "destructive",
}: ConfirmDialogProps) {
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";

  return (
    <UrlDialog open={open} title={title} description={message} closeTo={closeTo} maxWidth="md">
      <Form method="post" action={action} preventScrollReset>
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={String(value)} />
        ))}
        <DialogFooter>
          <ButtonLink to={closeTo} variant="outline" preventScrollReset>
            {cancelLabel}
          </ButtonLink>
          <Button type="submit" variant={confirmVariant} disabled={submitting}>
            {submitting
              ? (pendingLabel ?? (confirmLabel === "Excluir" ? "Excluindo..." : confirmLabel))
              : confirmLabel}
          </Button>
        </DialogFooter>
      </Form>
    </UrlDialog>
  );
}
