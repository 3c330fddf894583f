import { Form } from "react-router";
import { Link } from "~/components/ui/link";
import { RouteErrorBoundary } from "~/components/route-error";
import { Badge } from "~/components/ui/badge";
import { Button, ButtonLink } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import { assertCan, requirePermission } from "~/.server/auth";
import { dispatchIntent } from "~/.server/intent-action";
import { routeUrl } from "~/.server/route-url";
import { formatDateTime } from "~/lib/dates";
import { OPME_JUSTIFICATION_MESSAGE, OPME_REASON_MAX, opmeBadgeText } from "~/lib/opme";
import { stageLabel } from "~/lib/pipeline";
import { useToastEffect } from "~/lib/use-toast-effect";
import { getOpme } from "~/models/opme.server";
import { moveFormBack, moveFormIntent, moveFormSurgery } from "~/models/pipeline-intents.server";
import type { Route } from "./+types/pipeline-opme-approve";

export const handle = { title: "Aprovar sem três cotações", subtitle: "Justifique a aprovação da OPME" };
export const meta: Route.MetaFunction = () => [{ title: "Aprovar sem três cotações · Sinapse" }];

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requirePermission(request, "pipeline", "view");
  assertCan(user, "pipeline", "edit");
  const surgery = moveFormSurgery(params);
  return { surgery, suppliers: getOpme(surgery.id).suppliers, back: moveFormBack(routeUrl(request)) };
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requirePermission(request, "pipeline", "view");
  return dispatchIntent(request, user, {
    back: moveFormBack(routeUrl(request)),
    notFoundMessage: "Cirurgia não encontrada.",
    // The form posts its own surgery only; the move itself checks the quotes and the justification.
    intents: { move: moveFormIntent(params) },
  });
}

export default function ApprovePage({ loaderData, actionData }: Route.ComponentProps) {
  const { surgery, suppliers, back } = loaderData;
  useToastEffect(actionData?.toast);
  const errors = actionData?.result?.error ?? null;
  const fieldErrors = errors?.justification ?? null;
  const formErrors = errors?.[""] ?? errors?.to ?? null;
  return (
    <Card className="max-w-2xl">
      <CardHeader>
        <CardTitle as="h2">Mover para Aprovado</CardTitle>
        <CardDescription>
          {surgery.surgeryType} de {surgery.patientName}, {formatDateTime(surgery.scheduledDate)} · hoje em {stageLabel(surgery.currentStage)}
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <p className="flex flex-wrap items-center gap-2 text-sm">
          <Badge variant="warning">{opmeBadgeText(suppliers)}</Badge>
          <span>{OPME_JUSTIFICATION_MESSAGE}</span>
          <Link to={`/pipeline/${surgery.id}/opme`} className="text-primary underline underline-offset-4">
            Ver cotações
          </Link>
        </p>
        <Form method="post" className="space-y-4">
          <input type="hidden" name="intent" value="move" />
          <input type="hidden" name="id" value={surgery.id} />
          <input type="hidden" name="to" value="aprovado" />
          {formErrors ? <p className="text-sm text-destructive">{formErrors.join(" ")}</p> : null}
          <div className="grid gap-1.5">
            <Label htmlFor="approval-justification">Justificativa</Label>
            <Textarea
              id="approval-justification"
              name="justification"
              rows={4}
              required
              maxLength={OPME_REASON_MAX}
              autoFocus
              aria-invalid={fieldErrors ? true : undefined}
              aria-describedby={fieldErrors ? "approval-justification-error" : undefined}
            />
            {fieldErrors ? (
              <p id="approval-justification-error" className="text-sm text-destructive">
                {fieldErrors.join(" ")}
              </p>
            ) : null}
          </div>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <ButtonLink to={back} variant="outline">
              Cancelar
            </ButtonLink>
            <Button type="submit">Mover para Aprovado</Button>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
