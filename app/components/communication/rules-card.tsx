import { Plus } from "~/components/icons";
import { Form } from "react-router";
import { Link } from "~/components/ui/link";
import { Badge } from "~/components/ui/badge";
import { ButtonLink } from "~/components/ui/button";
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import type { listRules } from "~/models/automation.server";

/** The 'Automação' tab: the automation rules, a switch and 'Editar' each for those who manage them. */
export function RulesCard({ rules, manage, closeTo }: { rules: ReturnType<typeof listRules>; manage: boolean; closeTo: string }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2" className="text-base">
          Regras de automação
        </CardTitle>
        <CardDescription>Cada regra ativa envia um template aprovado uma vez por consulta, cirurgia ou aniversário.</CardDescription>
        {manage ? (
          <CardAction>
            <ButtonLink to={`${closeTo}&rule=new`} size="sm" preventScrollReset>
              <Plus aria-hidden />
              Nova regra
            </ButtonLink>
          </CardAction>
        ) : null}
      </CardHeader>
      <CardContent>
        {rules.length ? (
          <ul className="divide-y" aria-label="Regras de automação">
            {rules.map((rule) => (
              <li key={rule.id} className="flex flex-wrap items-center gap-3 py-3">
                <div className="min-w-0 flex-1">
                  <p className="font-medium">{rule.name}</p>
                  <p className="text-sm text-muted-foreground">
                    {rule.description} · {rule.templateTitle}
                  </p>
                </div>
                {manage ? (
                  <>
                    <Form method="post" preventScrollReset>
                      <input type="hidden" name="intent" value="toggle-rule" />
                      <input type="hidden" name="id" value={rule.id} />
                      <input type="hidden" name="enabled" value={rule.enabled ? "false" : "true"} />
                      <button
                        type="submit"
                        role="switch"
                        aria-checked={rule.enabled}
                        aria-label={`${rule.name}: ${rule.enabled ? "ativa" : "inativa"}`}
                        className="inline-flex h-6 w-11 items-center rounded-full border-2 border-transparent bg-input transition-colors focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none aria-checked:bg-primary"
                      >
                        <span className="block size-5 rounded-full bg-background shadow transition-transform in-aria-checked:translate-x-5" />
                      </button>
                    </Form>
                    <Link to={`${closeTo}&rule=${rule.id}`} preventScrollReset className="text-sm font-medium underline underline-offset-4" aria-label={`Editar regra ${rule.name}`}>
                      Editar
                    </Link>
                  </>
                ) : (
                  <Badge variant={rule.enabled ? "success" : "outline"}>{rule.enabled ? "Ativa" : "Inativa"}</Badge>
                )}
              </li>
            ))}
          </ul>
        ) : (
          <p className="py-6 text-center text-sm text-muted-foreground">Nenhuma regra de automação.</p>
        )}
      </CardContent>
    </Card>
  );
}

/** The 'Google Drive' and 'Google Forms' tabs: a pointer to the integration's own screen. */
export function IntegrationCard({ title, text, to }: { title: string; text: string; to: string }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2" className="text-base">
          {title}
        </CardTitle>
        <CardDescription>{text}</CardDescription>
      </CardHeader>
      <CardContent>
        <ButtonLink to={to}>Abrir {title}</ButtonLink>
      </CardContent>
    </Card>
  );
}
