import { intent } from "~/.server/intent-action";
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
