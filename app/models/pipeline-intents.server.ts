import { intent } from "~/.server/intent-action";
import { notFound } from "~/.server/responses";
import { parseId } from "~/lib/list-params";
import { getSurgery } from "./surgery.server";
import { moveSchema } from "~/validation/pipeline";
import { moveSurgery } from "./pipeline.server";

/** SPEC §8: what a refused move reads; the reason goes below it. */
export const MOVE_FAILED = "Erro ao atualizar status";

/** The 'move' intent of the board and of the denial form: one transaction, 'Status atualizado'. */
export function moveIntent(check: (id: number) => void = () => {}) {
  return intent({
    permission: ["pipeline", "edit"],
    schema: moveSchema,
    record: true,
    run: ({ user, id, input }) => {
      check(id);
      moveSurgery(user.id, id, input);
    },
    success: "Status atualizado",
    failure: MOVE_FAILED,
  });
}

/** Where a move form (denial, approval with a justification) returns: the board with its filters (only a /pipeline path: no open redirect). */
export function moveFormBack(url: URL): string {
  const value = url.searchParams.get("voltar");
  if (!value || !/^\/pipeline(\?|$)/.test(value) || /[^\x21-\x7E]/.test(value)) return "/pipeline";
  return value.slice(0, 500);
}

/** The surgery a move form is about (404 when the id is malformed or unknown), as the form shows it. */
export function moveFormSurgery(params: { id?: string }) {
  const surgery = getSurgery(parseId(params.id) ?? notFound("Cirurgia não encontrada.")) ?? notFound("Cirurgia não encontrada.");
  return {
    id: surgery.id,
    patientName: surgery.patientName,
    surgeryType: surgery.surgeryType,
    scheduledDate: surgery.scheduledDate,
    currentStage: surgery.currentStage,
    payerName: surgery.payerName,
  };
}

/** The form's 'move' intent, for its own surgery only. */
export function moveFormIntent(params: { id?: string }) {
  return moveIntent((id) => (String(id) === params.id ? undefined : notFound("Cirurgia não encontrada.")));
}
