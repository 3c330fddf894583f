import type { SubmissionResult } from "@conform-to/react";
import { data } from "react-router";
import type { Toast } from "~/lib/toast";

/** What a list screen's action returns when it does not redirect: the form's state and a toast. */
export interface FormFailure {
  intent: string;
  result?: SubmissionResult<string[]>;
  toast?: Toast;
}

/** A 400 carrying the form's errors (shown beside the fields) and, optionally, an error toast. */
export function formFailure(intent: string, result: SubmissionResult<string[]> | undefined, message?: string) {
  return data<FormFailure>({ intent, result, toast: message ? { type: "error", message } : undefined }, { status: 400 });
}

export function notFound(message = "O registro procurado não existe ou foi excluído."): never {
  throw data({ error: message }, { status: 404 });
}

export function badRequest(message = "Requisição inválida."): never {
  throw data({ error: message }, { status: 400 });
}
