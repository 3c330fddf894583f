import { Upload } from "~/components/icons";
import { type ChangeEvent, useId, useState } from "react";
import { Form, useNavigation } from "react-router";
import { Link } from "~/components/ui/link";
import { DialogFooter, UrlDialog } from "~/components/dialog";
import { PatientPicker, type PickerOption } from "~/components/entity-picker";
import { FormErrors } from "~/components/form-field";
import { Button, ButtonLink } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Select } from "~/components/ui/select";
import { Textarea } from "~/components/ui/textarea";
import { formatDate } from "~/lib/dates";
import { DOCUMENT_CATEGORIES, DOCUMENT_CATEGORY_LABELS } from "~/lib/enums";

type UploadState =
  | { step: "patient"; patientQ: string; patients: readonly PickerOption[] }
  | {
      step: "file";
      patient: { id: number; name: string };
      surgeries: { id: number; surgeryType: string; scheduledDate: Date }[];
      limitMb: number;
      accepted: string;
    };

export interface UploadResult {
  message: string;
  fieldErrors: Record<string, string[]>;
}

function FieldError({ id, errors }: { id: string; errors?: string[] }) {
  return errors?.length ? (
    <p id={id} role="alert" className="text-sm text-destructive">
      {errors.join(" ")}
    </p>
  ) : null;
}

/**
 * 'Enviar documento' (/files?dialog=upload): first the patient (the dialogs' picker, a GET form),
 * then the file, its category, an optional surgery of that patient and a note, sent as
 * multipart/form-data. The server checks type and size; with JavaScript a file over the limit is
 * refused here before it is sent.
 */
export function DocumentUploadDialog({
  upload,
  closeTo,
  returnTo,
  result,
}: {
  upload: UploadState;
  closeTo: string;
  returnTo: string | null;
  result?: UploadResult;
}) {
  const id = useId();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formMethod?.toUpperCase() === "POST";
  const [tooLarge, setTooLarge] = useState<string | null>(null);

  if (upload.step === "patient") {
    return (
      <UrlDialog title="Enviar documento" description="Escolha o paciente do documento." closeTo={closeTo} maxWidth="lg">
        <Form method="get" className="space-y-4">
          <input type="hidden" name="dialog" value="upload" />
          {returnTo ? <input type="hidden" name="returnTo" value={returnTo} /> : null}
          <PatientPicker options={upload.patients} defaultValue={null} searchDefault={upload.patientQ} searchPlaceholder="Nome ou CPF..." required />
          <DialogFooter>
            <ButtonLink to={closeTo} variant="outline" preventScrollReset>
              Cancelar
            </ButtonLink>
            <Button type="submit">Continuar</Button>
          </DialogFooter>
        </Form>
      </UrlDialog>
    );
  }

  const errors = result?.fieldErrors ?? {};
  const limitBytes = upload.limitMb * 1024 * 1024;
  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    const message = file && file.size > limitBytes ? `O arquivo passa do limite de ${upload.limitMb} MB.` : null;
    event.currentTarget.setCustomValidity(message ?? "");
    setTooLarge(message);
  };
  const fileErrors = tooLarge ? [tooLarge] : errors.file;

  return (
    <UrlDialog title="Enviar documento" closeTo={closeTo} maxWidth="lg">
      <Form method="post" encType="multipart/form-data" className="space-y-4" preventScrollReset>
        <input type="hidden" name="patientId" value={upload.patient.id} />
        {result && !Object.keys(errors).length ? <FormErrors errors={[result.message]} /> : null}
        <p className="text-sm">
          Paciente: <strong>{upload.patient.name}</strong>{" "}
          <Link to={`/files?dialog=upload${returnTo ? `&returnTo=${encodeURIComponent(returnTo)}` : ""}`} className="text-muted-foreground underline">
            trocar
          </Link>
        </p>
        <FieldError id={`${id}-patient-error`} errors={errors.patientId} />
        <div className="grid content-start gap-2">
          <Label htmlFor={`${id}-file`}>
            Arquivo <span aria-hidden="true" className="text-destructive">*</span>
          </Label>
          <Input
            id={`${id}-file`}
            type="file"
            name="file"
            required
            accept="application/pdf,image/jpeg,image/png,image/webp,image/heic,.pdf,.jpg,.jpeg,.png,.webp,.heic"
            onChange={onFile}
            aria-invalid={fileErrors?.length ? true : undefined}
            aria-describedby={`${id}-file-hint${fileErrors?.length ? ` ${id}-file-error` : ""}`}
          />
          <p id={`${id}-file-hint`} className="text-sm text-muted-foreground">
            {upload.accepted}, até {upload.limitMb} MB.
          </p>
          <FieldError id={`${id}-file-error`} errors={fileErrors} />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="grid content-start gap-2">
            <Label htmlFor={`${id}-category`}>
              Categoria <span aria-hidden="true" className="text-destructive">*</span>
            </Label>
            <Select id={`${id}-category`} name="category" required defaultValue="" aria-invalid={errors.category?.length ? true : undefined}>
              <option value="" disabled>
                Selecione...
              </option>
              {DOCUMENT_CATEGORIES.map((value) => (
                <option key={value} value={value}>
                  {DOCUMENT_CATEGORY_LABELS[value]}
                </option>
              ))}
            </Select>
            <FieldError id={`${id}-category-error`} errors={errors.category} />
          </div>
          <div className="grid content-start gap-2">
            <Label htmlFor={`${id}-surgery`}>Cirurgia (opcional)</Label>
            <Select id={`${id}-surgery`} name="surgeryId" defaultValue="">
              <option value="">Nenhuma</option>
              {upload.surgeries.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.surgeryType} · {formatDate(s.scheduledDate)}
                </option>
              ))}
            </Select>
            <FieldError id={`${id}-surgery-error`} errors={errors.surgeryId} />
          </div>
        </div>
        <div className="grid content-start gap-2">
          <Label htmlFor={`${id}-note`}>Observação</Label>
          <Textarea id={`${id}-note`} name="note" rows={3} maxLength={500} />
          <FieldError id={`${id}-note-error`} errors={errors.note} />
        </div>
        <DialogFooter>
          <ButtonLink to={closeTo} variant="outline" preventScrollReset>
            Cancelar
          </ButtonLink>
          <Button type="submit" disabled={busy || !!tooLarge}>
            <Upload aria-hidden />
            {busy ? "Enviando..." : "Enviar documento"}
          </Button>
        </DialogFooter>
      </Form>
    </UrlDialog>
  );
}
