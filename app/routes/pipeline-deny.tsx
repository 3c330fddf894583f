import { Form } from "react-router";
import { RouteErrorBoundary } from "~/components/route-error";
import { Button, ButtonLink } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Checkbox } from "~/components/ui/checkbox";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import { assertCan, requirePermission } from "~/.server/auth";
import { dispatchIntent } from "~/.server/intent-action";
import { routeUrl } from "~/.server/route-url";
import { formatDateTime } from "~/lib/dates";
import { DENIAL_REASON_MAX, stageLabel } from "~/lib/pipeline";
import { useToastEffect } from "~/lib/use-toast-effect";
import { moveFormBack, moveFormIntent, moveFormSurgery } from "~/models/pipeline-intents.server";
import type { Route } from "./+types/pipeline-deny";

export const handle = { title: "Autorização negada", subtitle: "Registre o motivo da negativa do convênio" };
export const meta: Route.MetaFunction = () => [{ title: "Autorização negada · Sinapse" }];

export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await requirePermission(request, "pipeline", "view");
  assertCan(user, "pipeline", "edit");
  return { surgery: moveFormSurgery(params), back: moveFormBack(routeUrl(request)) };
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requirePermission(request, "pipeline", "view");
  return dispatchIntent(request, user, {
    back: moveFormBack(routeUrl(request)),
    notFoundMessage: "Cirurgia não encontrada.",
    // The form posts its own surgery only.
    intents: { move: moveFormIntent(params) },
  });
}

export default function DenyPage({ loaderData, actionData }: Route.ComponentProps) {
  const { surgery, back } = loaderData;
  useToastEffect(actionData?.toast);
  // A plain form: the browser checks the required reason, the server's moveSchema answers the rest
  // beside the field (this page carries no form library in its first load).
  const errors = actionData?.result?.error ?? null;
  const reasonErrors = errors?.denialReason ?? null;
  const formErrors = errors?.[""] ?? null;
  return (
    <Card className="max-w-2xl">
      <CardHeader>
        <CardTitle as="h2">Mover para Negado</CardTitle>
        <CardDescription>
          {surgery.surgeryType} de {surgery.patientName}, {formatDateTime(surgery.scheduledDate)} · hoje em {stageLabel(surgery.currentStage)}
          {surgery.payerName ? ` · ${surgery.payerName}` : ""}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" className="space-y-4">
          <input type="hidden" name="intent" value="move" />
          <input type="hidden" name="id" value={surgery.id} />
          <input type="hidden" name="to" value="negado" />
          {formErrors ? <p className="text-sm text-destructive">{formErrors.join(" ")}</p> : null}
          <div className="grid gap-1.5">
            <Label htmlFor="denial-reason">Motivo da negativa</Label>
            <Textarea
              id="denial-reason"
              name="denialReason"
              rows={4}
              required
              maxLength={DENIAL_REASON_MAX}
              autoFocus
              aria-invalid={reasonErrors ? true : undefined}
              aria-describedby={reasonErrors ? "denial-reason-error" : undefined}
            />
            {reasonErrors ? (
              <p id="denial-reason-error" className="text-sm text-destructive">
                {reasonErrors.join(" ")}
              </p>
            ) : null}
          </div>
          <div className="flex items-center gap-2">
            <Checkbox id="denial-appeal" name="denialAppeal" />
            <Label htmlFor="denial-appeal" className="font-normal">
              A clínica vai recorrer da negativa
            </Label>
          </div>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <ButtonLink to={back} variant="outline">
              Cancelar
            </ButtonLink>
            <Button type="submit">Mover para Negado</Button>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
