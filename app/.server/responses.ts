import type { SubmissionResult } from "@conform-to/react";
import { data } from "react-router";
import type { Toast } from "~/lib/toast";

/** What a list screen's action returns when it does not redirect: the form's state and a toast. */
export interface FormFailure {
  intent: string;
  result?: SubmissionResult<string[]>;
  toast?: Toast;
}

/** Longest value a refused form gets back; no field of ours is longer, so a huge value is cut, never echoed. */
export const MAX_ECHOED_CHARS = 2000;

function capValue(value: unknown): unknown {
  if (typeof value === "string") return value.length > MAX_ECHOED_CHARS ? value.slice(0, MAX_ECHOED_CHARS) : value;
  if (Array.isArray(value)) return value.map(capValue);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, capValue(inner)]));
  }
  return value;
}

/** The form's reply with every echoed value cut to MAX_ECHOED_CHARS (the page re-fills the fields with them). */
export function capEchoedValues<R extends SubmissionResult<string[]> | undefined>(result: R): R {
  if (!result?.initialValue) return result;
  return { ...result, initialValue: capValue(result.initialValue) as NonNullable<R>["initialValue"] };
}

/** A 400 carrying the form's errors (shown beside the fields) and, optionally, an error toast. */
export function formFailure(intent: string, result: SubmissionResult<string[]> | undefined, message?: string) {
  return data<FormFailure>(
    { intent, result: capEchoedValues(result), toast: message ? { type: "error", message } : undefined },
    { status: 400 },
  );
}

export function notFound(message = "O registro procurado não existe ou foi excluído."): never {
  throw data({ error: message }, { status: 404 });
}

export function badRequest(message = "Requisição inválida."): never {
  throw data({ error: message }, { status: 400 });
}
