import { ArrowLeft } from "~/components/icons";
import { Form } from "react-router";
import { Link } from "~/components/ui/link";
import { RouteErrorBoundary } from "~/components/route-error";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Checkbox } from "~/components/ui/checkbox";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import { requirePermission } from "~/.server/auth";
import { dispatchIntent, intent } from "~/.server/intent-action";
import { can } from "~/lib/permissions";
import { useToastEffect } from "~/lib/use-toast-effect";
import { listChecklists, saveChecklist } from "~/models/stage-checklist.server";
import { CHECKLIST_MAX_ITEMS } from "~/lib/pipeline";
import { checklistSchema } from "~/validation/stage-checklist";
import type { Route } from "./+types/checklists";

export const handle = { title: "Checklists do pipeline", subtitle: "A tarefa criada quando uma cirurgia entra em cada etapa" };
export const meta: Route.MetaFunction = () => [{ title: "Checklists do pipeline · Sinapse" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "settings", "view");
  return { checklists: listChecklists(), canEdit: can(user, "settings", "edit") };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, "settings", "view");
  return dispatchIntent(request, user, {
    back: "/settings/checklists",
    intents: {
      save: intent({
        permission: ["settings", "edit"],
        schema: checklistSchema,
        run: ({ input }) => saveChecklist(user.id, input),
        success: "Checklist salvo",
        failure: "Erro ao salvar checklist",
        back: ({ input }) => `/settings/checklists#etapa-${input.stage}`,
      }),
    },
  });
}

export default function ChecklistsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { checklists, canEdit } = loaderData;
  useToastEffect(actionData?.toast);
  const failedStage = actionData?.intent === "save" ? String((actionData.result?.initialValue as { stage?: string } | undefined)?.stage ?? "") : "";
  const errors = actionData?.intent === "save" ? (actionData.result?.error ?? null) : null;
  return (
    <div className="max-w-4xl space-y-6">
      <Link to="/settings" className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
        <ArrowLeft className="size-4" aria-hidden /> Configurações
      </Link>
      <p className="text-sm text-muted-foreground">
        Quando uma cirurgia entra numa etapa com checklist ativo, uma tarefa com estes itens como subtarefas é criada em Gestão de Tarefas — uma
        única vez por cirurgia e etapa, mesmo que ela volte à etapa depois.
      </p>
      {checklists.map((checklist) => {
        const own = failedStage === checklist.stage ? errors : null;
        const prefix = `checklist-${checklist.stage}`;
        return (
          <Card key={checklist.stage} id={`etapa-${checklist.stage}`} aria-labelledby={`${prefix}-title`}>
            <CardHeader>
              <div className="flex items-center justify-between gap-2">
                <CardTitle as="h2" id={`${prefix}-title`} className="text-base">
                  {checklist.label}
                </CardTitle>
                <Badge variant={checklist.active && checklist.items.length ? "success" : "secondary"}>
                  {checklist.active && checklist.items.length ? `${checklist.items.length} itens` : "Sem checklist"}
                </Badge>
              </div>
              {!canEdit && checklist.title ? <CardDescription>{checklist.title}</CardDescription> : null}
            </CardHeader>
            <CardContent>
              {canEdit ? (
                <Form method="post" className="grid gap-3" aria-label={`Checklist de ${checklist.label}`}>
                  <input type="hidden" name="intent" value="save" />
                  <input type="hidden" name="stage" value={checklist.stage} />
                  <div className="grid gap-1.5">
                    <Label htmlFor={`${prefix}-name`}>Título da tarefa</Label>
                    <Input id={`${prefix}-name`} name="title" defaultValue={checklist.title || `Checklist: ${checklist.label}`} required maxLength={120} aria-describedby={`${prefix}-name-error`} />
                    {own?.title ? (
                      <p id={`${prefix}-name-error`} className="text-sm text-destructive">
                        {own.title.join(" ")}
                      </p>
                    ) : null}
                  </div>
                  <div className="grid gap-1.5">
                    <Label htmlFor={`${prefix}-items`}>Itens (um por linha, até {CHECKLIST_MAX_ITEMS})</Label>
                    <Textarea id={`${prefix}-items`} name="items" rows={Math.max(3, checklist.items.length + 1)} defaultValue={checklist.items.join("\n")} aria-describedby={`${prefix}-items-error`} />
                    {own?.items ? (
                      <p id={`${prefix}-items-error`} className="text-sm text-destructive">
                        {own.items.join(" ")}
                      </p>
                    ) : null}
                  </div>
                  <div className="flex flex-wrap items-center justify-between gap-3">
                    <div className="flex items-center gap-2">
                      <Checkbox id={`${prefix}-active`} name="active" defaultChecked={checklist.active} />
                      <Label htmlFor={`${prefix}-active`} className="font-normal">
                        Criar a tarefa quando a cirurgia entrar nesta etapa
                      </Label>
                    </div>
                    <Button type="submit">Salvar checklist</Button>
                  </div>
                </Form>
              ) : checklist.items.length ? (
                <ul className="list-disc space-y-1 pl-5 text-sm">
                  {checklist.items.map((item, i) => (
                    <li key={i}>{item}</li>
                  ))}
                </ul>
              ) : (
                <p className="text-sm text-muted-foreground">Nenhum item.</p>
              )}
            </CardContent>
          </Card>
        );
      })}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
