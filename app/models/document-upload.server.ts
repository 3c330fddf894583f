import { data } from "react-router";
import { DomainError } from "~/.server/domain-error";
import { redirectWithToast } from "~/.server/toast";
import { ALLOWED_TYPES, UPLOAD_MESSAGES, UploadError, discardUpload, receiveUpload } from "~/.server/uploads";
import { parseId } from "~/lib/list-params";
import { cleanQueryText } from "~/lib/text";
import { documentSchema } from "~/validation/document";
import { createDocument, patientSurgeryOptions, uploadLimit } from "./document.server";
import { getPatient } from "./patient.server";
import { patientPickerOptions } from "./picker-options.server";

/** The /files upload: the dialog's state for the loader, and the multipart POST for the action. */

/** The upload dialog's state: choosing the patient first (a picker), then the file and its details. */
export function uploadDialog(url: URL) {
  const patientId = parseId(url.searchParams.get("patientId"));
  const patient = patientId ? getPatient(patientId) : null;
  if (patient) {
    return {
      step: "file" as const,
      patient: { id: patient.id, name: patient.name },
      surgeries: patientSurgeryOptions(patient.id),
      limitMb: uploadLimit().maxMb,
      accepted: Object.values(ALLOWED_TYPES).join(", "),
    };
  }
  const patientQ = cleanQueryText(url.searchParams.get("patientQ"));
  return { step: "patient" as const, patientQ, patients: patientPickerOptions(patientQ, null) };
}

/** A refused upload: the dialog shows the message (400, 413 or 415), with the form's field errors. */
function uploadFailure(status: 400 | 413 | 415, message: string, fieldErrors: Record<string, string[]> = {}) {
  return data({ intent: "upload" as const, upload: { message, fieldErrors }, toast: { type: "error" as const, message } }, { status });
}

/**
 * The upload (multipart): the user's right to upload is checked before a byte of the body is
 * read; the file streams to disk within the size limit and is kept only when everything is valid.
 */
export async function handleUpload(request: Request, userId: number, back: string) {
  const limit = uploadLimit();
  let received;
  try {
    received = await receiveUpload(request, limit);
  } catch (error) {
    if (error instanceof UploadError) return uploadFailure(error.status, error.message);
    throw error;
  }
  const parsed = documentSchema.safeParse(received.fields);
  if (!parsed.success) {
    discardUpload(received.file);
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (fieldErrors[String(issue.path[0])] ??= []).push(issue.message);
    return uploadFailure(400, "Confira os campos do documento.", fieldErrors);
  }
  if (!received.file) return uploadFailure(400, UPLOAD_MESSAGES.missing, { file: [UPLOAD_MESSAGES.missing] });
  try {
    createDocument(userId, parsed.data, received.file);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return uploadFailure(400, error.message, error.field ? { [error.field]: [error.message] } : {});
  }
  return redirectWithToast(back, { type: "success", message: "File uploaded successfully" });
}

