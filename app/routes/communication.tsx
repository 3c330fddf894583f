import { Bot, FolderOpen, MessageCircle, Plus, Send, SquarePen, Users } from "~/components/icons";
import { Form, Link } from "react-router";
import { RecentMessages } from "~/components/comms-messages";
import { type QuickSendDraft, QuickSendCard } from "~/components/comms-quick-send";
import { ReplyDialog, RuleDialog, TemplateDialog } from "~/components/comms-dialogs";
import { UrlDialog } from "~/components/dialog";
import { RouteErrorBoundary } from "~/components/route-error";
import { StatCard } from "~/components/stat-card";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { ButtonLink } from "~/components/ui/button";
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { TabsNav } from "~/components/ui/tabs-nav";
import { assertCan, requirePermission } from "~/.server/auth";
import { dispatchIntent, intent } from "~/.server/intent-action";
import { notFound } from "~/.server/responses";
import { whatsappStatus } from "~/.server/whatsapp";
import { startCommsWorker, wakeCommsWorker } from "~/.server/whatsapp-worker";
import { formatDateTime } from "~/lib/dates";
import { TEMPLATE_CATEGORY_LABELS, TEMPLATE_STATUS_LABELS, type TemplateStatus } from "~/lib/enums";
import { parseId } from "~/lib/list-params";
import { isKnownVariable, previewOf } from "~/lib/message-template";
import { can } from "~/lib/permissions";
import type { Toast } from "~/lib/toast";
import { useToastEffect } from "~/lib/use-toast-effect";
import { getRule, listRules, setRuleEnabled, createRule, updateRule } from "~/models/automation.server";
import { commsKpis, sendQuickMessage, sendReply } from "~/models/comms.server";
import { consentOf, conversation, customerWindow, recentMessages } from "~/models/message.server";
import { patientPickerOptions } from "~/models/picker-options.server";
import { createTemplate, getTemplate, listTemplates, templatesByCategory, updateTemplate } from "~/models/template.server";
import { quickSendSchema, replySchema, ruleSchema, templateSchema, toggleRuleSchema } from "~/validation/comms";
import type { Route } from "./+types/communication";

export const handle = { title: "Comunicação", subtitle: "Mensagens aos pacientes por WhatsApp, templates e automações" };
export const meta: Route.MetaFunction = () => [{ title: "Comunicação · Sinapse" }];

const TABS = ["whatsapp", "drive", "forms", "automacao"] as const;
type Tab = (typeof TABS)[number];
const CONSENT_SOURCE_LABELS: Record<string, string> = {
  cadastro: "cadastro do paciente",
  paciente_whatsapp: "pelo WhatsApp",
  formulario: "formulário assinado",
  verbal: "consentimento verbal",
};

function tabOf(url: URL): Tab {
  const raw = url.searchParams.get("tab");
  return (TABS as readonly string[]).includes(raw ?? "") ? (raw as Tab) : "whatsapp";
}

/** The quick-send state a GET round trip carries (the picker's 'Buscar', 'Carregar template' without JavaScript). */
function draftOf(url: URL): QuickSendDraft {
  const params = url.searchParams;
  const variables: Record<string, string> = {};
  for (const [key, value] of params) {
    const name = key.startsWith("variables.") ? key.slice("variables.".length) : null;
    if (name && isKnownVariable(name)) variables[name] = value.slice(0, 500);
  }
  return {
    patientId: parseId(params.get("patientId")),
    patientQ: (params.get("patientQ") ?? "").slice(0, 100),
    templateId: parseId(params.get("templateId")),
    variables,
  };
}

function consentText(patientId: number | null): { name: string | null; consent: string | null } {
  const consent = patientId ? consentOf(patientId) : null;
  if (!consent) return { name: null, consent: null };
  const text = consent.optIn
    ? `Opt-in do WhatsApp registrado${consent.at ? ` em ${formatDateTime(consent.at)}` : ""}${consent.source ? ` (${CONSENT_SOURCE_LABELS[consent.source] ?? consent.source})` : ""}.`
    : "Este paciente não autorizou mensagens por WhatsApp (sem opt-in).";
  return { name: consent.name, consent: text };
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "communication", "view");
  // Started when the server loads (whatsapp-worker.ts); again here for the dev server, which loads routes lazily.
  startCommsWorker();
  const url = new URL(request.url);
  const tab = tabOf(url);
  const base = url.pathname.replace(/\/+$/, "");
  const params = url.searchParams;

  // URL-driven dialogs: ?template=new|ID, ?rule=new|ID (admins), ?reply=PATIENT (senders).
  let templateDialog: { mode: "new" } | { mode: "edit"; template: NonNullable<ReturnType<typeof getTemplate>> } | null = null;
  if (params.has("template")) {
    assertCan(user, "communication", "edit");
    const raw = params.get("template");
    if (raw === "new") templateDialog = { mode: "new" };
    else {
      const template = getTemplate(parseId(raw) ?? 0) ?? notFound("Template não encontrado.");
      templateDialog = { mode: "edit", template };
    }
  }
  let ruleDialog: { mode: "new" } | { mode: "edit"; rule: NonNullable<ReturnType<typeof getRule>> } | null = null;
  if (params.has("rule")) {
    assertCan(user, "communication", "edit");
    const raw = params.get("rule");
    if (raw === "new") ruleDialog = { mode: "new" };
    else ruleDialog = { mode: "edit", rule: getRule(parseId(raw) ?? 0) ?? notFound("Regra não encontrada.") };
  }
  let reply: { patient: { id: number; name: string }; conversation: ReturnType<typeof conversation>; window: ReturnType<typeof customerWindow> } | null = null;
  if (params.has("reply")) {
    assertCan(user, "communication", "create");
    const patientId = parseId(params.get("reply"));
    const consent = patientId ? consentOf(patientId) : null;
    if (!patientId || !consent) notFound("Paciente não encontrado.");
    reply = { patient: { id: patientId, name: consent.name }, conversation: conversation(patientId), window: customerWindow(patientId) };
  }

  // ?dialog=send&patientId=N (the patient page's 'Enviar mensagem'): the quick send in a dialog, patient chosen.
  const sendDialog = params.get("dialog") === "send";
  if (sendDialog) assertCan(user, "communication", "create");

  const approved = listTemplates("aprovado").map((t) => ({ id: t.id, title: t.title, body: t.body }));
  const canSend = can(user, "communication", "create");
  const draft = draftOf(url);
  const chosen = consentText(draft.patientId);
  return {
    tab,
    base,
    closeTo: `${base}?tab=${tab}`,
    kpis: commsKpis(),
    whatsapp: whatsappStatus(),
    permissions: { send: canSend, manage: can(user, "communication", "edit") },
    approved,
    whatsappTab:
      tab === "whatsapp"
        ? {
            categories: templatesByCategory(),
            recent: recentMessages(10),
            quickSend: canSend ? { draft, patientOptions: patientPickerOptions(draft.patientQ, draft.patientId), ...chosen } : null,
          }
        : null,
    rules: tab === "automacao" || ruleDialog ? listRules() : [],
    templateDialog,
    ruleDialog,
    reply,
    sendDialog: sendDialog ? { draft, patientOptions: patientPickerOptions(draft.patientQ, draft.patientId), ...chosen } : null,
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, "communication", "view");
  const url = new URL(request.url);
  const back = `${url.pathname}?tab=${tabOf(url)}`;
  let queuedOnly = false;
  const sentToast = (): Toast =>
    queuedOnly
      ? { type: "info", message: "Mensagem na fila: o WhatsApp não está configurado, ela será enviada quando estiver." }
      : { type: "success", message: "Mensagem enviada com sucesso!" };
  return dispatchIntent(request, user, {
    back,
    notFoundMessage: "Registro não encontrado.",
    intents: {
      send: intent({
        permission: ["communication", "create"],
        schema: quickSendSchema,
        run: ({ user, input }) => {
          queuedOnly = !sendQuickMessage(user.id, input).configured;
          wakeCommsWorker();
        },
        success: sentToast,
        failure: "Erro ao enviar mensagem",
      }),
      reply: intent({
        permission: ["communication", "create"],
        schema: replySchema,
        run: ({ user, input }) => {
          queuedOnly = !sendReply(user.id, input).configured;
          wakeCommsWorker();
        },
        success: sentToast,
        failure: "Erro ao enviar mensagem",
      }),
      "create-template": intent({
        permission: ["communication", "edit"],
        schema: templateSchema,
        run: ({ user, input }) => createTemplate(user.id, input),
        success: "Template criado",
        failure: "Erro ao salvar template",
      }),
      "update-template": intent({
        permission: ["communication", "edit"],
        schema: templateSchema,
        record: true,
        run: ({ user, id, input }) => {
          if (!getTemplate(id)) notFound("Template não encontrado.");
          updateTemplate(user.id, id, input);
        },
        success: "Template atualizado",
        failure: "Erro ao salvar template",
      }),
      "create-rule": intent({
        permission: ["communication", "edit"],
        schema: ruleSchema,
        run: ({ user, input }) => createRule(user.id, input),
        success: "Regra criada",
        failure: "Erro ao salvar regra",
      }),
      "update-rule": intent({
        permission: ["communication", "edit"],
        schema: ruleSchema,
        record: true,
        run: ({ user, id, input }) => {
          if (!getRule(id)) notFound("Regra não encontrada.");
          updateRule(user.id, id, input);
        },
        success: "Regra atualizada",
        failure: "Erro ao salvar regra",
      }),
      "toggle-rule": intent({
        permission: ["communication", "edit"],
        schema: toggleRuleSchema,
        record: true,
        run: ({ user, id, input }) => {
          if (!getRule(id)) notFound("Regra não encontrada.");
          setRuleEnabled(user.id, id, input.enabled);
        },
        success: ({ input }) => ({ type: "success", message: input.enabled ? "Regra ativada" : "Regra desativada" }),
        failure: "Erro ao salvar regra",
      }),
    },
  });
}

const numberFormat = new Intl.NumberFormat("pt-BR");

export default function CommunicationPage({ loaderData, actionData }: Route.ComponentProps) {
  const { tab, base, closeTo, kpis, whatsapp, permissions, whatsappTab } = loaderData;
  const failed = actionData && "intent" in actionData ? actionData : undefined;
  useToastEffect(failed?.toast);
  const resultOf = (name: string) => (failed?.intent === name ? failed.result : undefined);
  const tabHref = (to: Tab) => `${base}?tab=${to}`;

  return (
    <div className="space-y-6">
      <section aria-label="Indicadores de comunicação" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard title="Pacientes com opt-in" value={numberFormat.format(kpis.optInPatients)} icon={Users} description="Autorizaram mensagens por WhatsApp" />
        <StatCard title="Enviadas (30 dias)" value={numberFormat.format(kpis.sent30d)} icon={Send} description="Enviadas, entregues ou lidas" />
        <StatCard title="Pastas no Drive" value={numberFormat.format(kpis.driveFolders)} icon={FolderOpen} description="Pastas de pacientes no Google Drive" />
        <StatCard title="Regras ativas" value={numberFormat.format(kpis.activeRules)} icon={Bot} description="Automações de envio ligadas" />
      </section>

      {!whatsapp.sending ? (
        <Alert variant="warning">
          <AlertTitle>WhatsApp não configurado</AlertTitle>
          <AlertDescription>
            As mensagens ficam na fila e não são enviadas até que o servidor tenha WHATSAPP_TOKEN e WHATSAPP_PHONE_NUMBER_ID (WhatsApp
            Business Cloud API).
          </AlertDescription>
        </Alert>
      ) : !whatsapp.webhook ? (
        <Alert variant="info">
          <AlertTitle>Webhook do WhatsApp não configurado</AlertTitle>
          <AlertDescription>
            As mensagens são enviadas, mas entregas, leituras e respostas só chegam com WHATSAPP_APP_SECRET e WHATSAPP_VERIFY_TOKEN e o
            webhook /api/comms/webhook registrado na Meta.
          </AlertDescription>
        </Alert>
      ) : null}

      <TabsNav
        label="Canais de comunicação"
        items={[
          { to: tabHref("whatsapp"), label: "WhatsApp Business", icon: MessageCircle, active: tab === "whatsapp" },
          { to: tabHref("drive"), label: "Google Drive", active: tab === "drive" },
          { to: tabHref("forms"), label: "Google Forms", active: tab === "forms" },
          { to: tabHref("automacao"), label: "Automação", icon: Bot, active: tab === "automacao" },
        ]}
      />

      {tab === "whatsapp" && whatsappTab ? (
        <div className="grid gap-6 xl:grid-cols-2">
          {loaderData.sendDialog ? null : whatsappTab.quickSend ? (
            <QuickSendCard
              key={whatsappTab.recent[0]?.id ?? 0}
              templates={loaderData.approved}
              patientOptions={
                failed?.intent === "send" && failed.result?.initialValue?.patientId && !whatsappTab.quickSend.draft.patientId
                  ? [{ id: Number(failed.result.initialValue.patientId), label: "Paciente selecionado" }, ...whatsappTab.quickSend.patientOptions]
                  : whatsappTab.quickSend.patientOptions
              }
              draft={failed?.intent === "send" ? draftFromResult(failed.result?.initialValue, whatsappTab.quickSend.draft) : whatsappTab.quickSend.draft}
              patientName={whatsappTab.quickSend.name}
              consent={whatsappTab.quickSend.consent}
              error={failed?.intent === "send" ? (failed.toast?.message ?? "Erro ao enviar mensagem") : null}
              keep={{ tab }}
            />
          ) : (
            <Card>
              <CardHeader>
                <CardTitle as="h2" className="text-base">
                  Envio rápido
                </CardTitle>
                <CardDescription>Somente administradores e equipe enviam mensagens.</CardDescription>
              </CardHeader>
            </Card>
          )}
          <Card>
            <CardHeader>
              <CardTitle as="h2" className="text-base">
                Mensagens recentes
              </CardTitle>
              <CardAction>
                <ButtonLink to={`${base === "/comunicacao" ? "/comunicacao/mensagens" : "/communication/messages"}`} variant="outline" size="sm">
                  Ver todas
                </ButtonLink>
              </CardAction>
            </CardHeader>
            <CardContent>
              <RecentMessages messages={whatsappTab.recent} replyHref={(patientId) => `${closeTo}&reply=${patientId}`} />
            </CardContent>
          </Card>
          <TemplatesCard categories={whatsappTab.categories} manage={permissions.manage} closeTo={closeTo} />
        </div>
      ) : null}

      {tab === "drive" ? (
        <IntegrationCard title="Google Drive" text="Pastas e documentos dos pacientes ficam no Google Drive da clínica." to="/google-drive" />
      ) : null}
      {tab === "forms" ? (
        <IntegrationCard title="Google Forms" text="Formulários de triagem e pesquisas de satisfação ficam no Google Forms." to="/google-forms" />
      ) : null}
      {tab === "automacao" ? <RulesCard rules={loaderData.rules} manage={permissions.manage} closeTo={closeTo} /> : null}

      {loaderData.templateDialog ? (
        <TemplateDialog
          template={loaderData.templateDialog.mode === "edit" ? loaderData.templateDialog.template : null}
          closeTo={closeTo}
          lastResult={resultOf(loaderData.templateDialog.mode === "edit" ? "update-template" : "create-template")}
        />
      ) : null}
      {loaderData.ruleDialog ? (
        <RuleDialog
          rule={loaderData.ruleDialog.mode === "edit" ? loaderData.ruleDialog.rule : null}
          templates={loaderData.approved}
          closeTo={closeTo}
          lastResult={resultOf(loaderData.ruleDialog.mode === "edit" ? "update-rule" : "create-rule")}
        />
      ) : null}
      {loaderData.sendDialog ? (
        <UrlDialog title="Enviar mensagem" closeTo={closeTo} maxWidth="3xl">
          <QuickSendCard
            templates={loaderData.approved}
            patientOptions={loaderData.sendDialog.patientOptions}
            draft={failed?.intent === "send" ? draftFromResult(failed.result?.initialValue, loaderData.sendDialog.draft) : loaderData.sendDialog.draft}
            patientName={loaderData.sendDialog.name}
            consent={loaderData.sendDialog.consent}
            error={failed?.intent === "send" ? (failed.toast?.message ?? "Erro ao enviar mensagem") : null}
            keep={{ tab, dialog: "send" }}
          />
        </UrlDialog>
      ) : null}
      {loaderData.reply ? (
        <ReplyDialog
          patient={loaderData.reply.patient}
          conversation={loaderData.reply.conversation}
          window={loaderData.reply.window}
          closeTo={closeTo}
          lastResult={resultOf("reply")}
        />
      ) : null}
    </div>
  );
}

/** The quick-send fields a refused POST sent, to show them again. */
function draftFromResult(initial: Record<string, unknown> | null | undefined, fallback: QuickSendDraft): QuickSendDraft {
  if (!initial) return fallback;
  const variables: Record<string, string> = {};
  const walk = (value: unknown, prefix: string) => {
    if (typeof value === "string") variables[prefix] = value;
    else if (value && typeof value === "object") for (const [key, item] of Object.entries(value)) walk(item, prefix ? `${prefix}.${key}` : key);
  };
  walk(initial.variables, "");
  return {
    patientId: parseId(initial.patientId) ?? fallback.patientId,
    patientQ: typeof initial.patientQ === "string" ? initial.patientQ : fallback.patientQ,
    templateId: parseId(initial.templateId),
    variables,
  };
}

function TemplatesCard({
  categories,
  manage,
  closeTo,
}: {
  categories: { category: keyof typeof TEMPLATE_CATEGORY_LABELS; templates: { id: number; title: string; status: TemplateStatus; body: string; metaName: string | null; metaLanguage: string }[] }[];
  manage: boolean;
  closeTo: string;
}) {
  const STATUS_VARIANT = { aprovado: "success", rascunho: "secondary", inativo: "outline" } as const;
  return (
    <Card className="xl:col-span-2">
      <CardHeader>
        <CardTitle as="h2" className="text-base">
          Templates de mensagem
        </CardTitle>
        <CardDescription>Só templates aprovados podem ser enviados.</CardDescription>
        {manage ? (
          <CardAction>
            <ButtonLink to={`${closeTo}&template=new`} size="sm" preventScrollReset>
              <Plus aria-hidden />
              Novo template
            </ButtonLink>
          </CardAction>
        ) : null}
      </CardHeader>
      <CardContent className="grid gap-6 lg:grid-cols-2">
        {categories.map(({ category, templates }, index) => (
          <section key={category} aria-labelledby={`category-${category}`} className="space-y-2">
            <h3 id={`category-${category}`} className="text-sm font-semibold">
              {index + 1}. {TEMPLATE_CATEGORY_LABELS[category]}
            </h3>
            {templates.length ? (
              <ul className="divide-y rounded-md border">
                {templates.map((t) => (
                  <li key={t.id} className="space-y-1 p-3">
                    <div className="flex flex-wrap items-center gap-2">
                      <span className="font-medium">{t.title}</span>
                      <Badge variant={STATUS_VARIANT[t.status]}>{TEMPLATE_STATUS_LABELS[t.status]}</Badge>
                      {manage ? (
                        <Link
                          to={`${closeTo}&template=${t.id}`}
                          preventScrollReset
                          className="ml-auto inline-flex items-center gap-1 text-xs font-medium underline underline-offset-4"
                          aria-label={`Editar template ${t.title}`}
                        >
                          <SquarePen aria-hidden className="size-3.5" />
                          Editar
                        </Link>
                      ) : null}
                    </div>
                    <p className="text-sm text-muted-foreground">{previewOf(t.body)}</p>
                    <p className="text-xs text-muted-foreground">
                      {t.metaName ? `Meta: ${t.metaName} · ${t.metaLanguage}` : "Sem vínculo com um template da Meta"}
                    </p>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-sm text-muted-foreground">Nenhum template nesta categoria.</p>
            )}
          </section>
        ))}
      </CardContent>
    </Card>
  );
}

function RulesCard({ rules, manage, closeTo }: { rules: ReturnType<typeof listRules>; manage: boolean; closeTo: string }) {
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

function IntegrationCard({ title, text, to }: { title: string; text: string; to: string }) {
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

export const ErrorBoundary = RouteErrorBoundary;
