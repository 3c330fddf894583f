import { Bot, MessageCircle } from "~/components/icons";
import { QuickSendCard, quickSendRetry } from "~/components/comms-quick-send";
import { ReplyDialog, RuleDialog, TemplateDialog } from "~/components/comms-dialogs";
import { CommsOverview } from "~/components/communication/comms-overview";
import { IntegrationCard, RulesCard } from "~/components/communication/rules-card";
import { WhatsappTab } from "~/components/communication/whatsapp-tab";
import { UrlDialog } from "~/components/dialog";
import { RouteErrorBoundary } from "~/components/route-error";
import { TabsNav } from "~/components/ui/tabs-nav";
import { requirePermission } from "~/.server/auth";
import { dispatchIntent, intent } from "~/.server/intent-action";
import { notFound } from "~/.server/responses";
import { routeUrl } from "~/.server/route-url";
import { whatsappStatus } from "~/.server/whatsapp";
import { startCommsWorker, wakeCommsWorker } from "~/.server/whatsapp-worker";
import { can } from "~/lib/permissions";
import type { Toast } from "~/lib/toast";
import { useToastEffect } from "~/lib/use-toast-effect";
import { getRule, listRules, setRuleEnabled, createRule, updateRule } from "~/models/automation.server";
import { commsDialogs, commsKpis, quickSendState, sendQuickMessage, sendReply } from "~/models/comms.server";
import { recentMessages } from "~/models/message.server";
import { approvedTemplateChoices, createTemplate, getTemplate, templatesByCategory, updateTemplate } from "~/models/template.server";
import { quickSendSchema, replySchema, ruleSchema, templateSchema, toggleRuleSchema } from "~/validation/comms";
import type { Route } from "./+types/communication";

export const handle = { title: "Comunicação", subtitle: "Mensagens aos pacientes por WhatsApp, templates e automações" };
export const meta: Route.MetaFunction = () => [{ title: "Comunicação · Sinapse" }];

const TABS = ["whatsapp", "drive", "forms", "automacao"] as const;
type Tab = (typeof TABS)[number];
function tabOf(url: URL): Tab {
  const raw = url.searchParams.get("tab");
  return (TABS as readonly string[]).includes(raw ?? "") ? (raw as Tab) : "whatsapp";
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requirePermission(request, "communication", "view");
  // Started when the server loads (whatsapp-worker.ts); again here for the dev server, which loads routes lazily.
  startCommsWorker();
  const url = routeUrl(request);
  const tab = tabOf(url);
  const base = url.pathname.replace(/\/+$/, "");
  const params = url.searchParams;

  const dialogs = commsDialogs(params, user);
  const approved = approvedTemplateChoices();
  const canSend = can(user, "communication", "create");
  const quickSend = canSend && (tab === "whatsapp" || dialogs.sendDialog) ? quickSendState(params) : null;
  return {
    tab,
    base,
    closeTo: `${base}?tab=${tab}`,
    kpis: commsKpis(),
    whatsapp: whatsappStatus(),
    permissions: { send: canSend, manage: can(user, "communication", "edit") },
    approved,
    whatsappTab: tab === "whatsapp" ? { categories: templatesByCategory(), recent: recentMessages(10), quickSend } : null,
    rules: tab === "automacao" || dialogs.ruleDialog ? listRules() : [],
    templateDialog: dialogs.templateDialog,
    ruleDialog: dialogs.ruleDialog,
    reply: dialogs.reply,
    sendDialog: dialogs.sendDialog ? quickSend : null,
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, "communication", "view");
  const url = routeUrl(request);
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

export default function CommunicationPage({ loaderData, actionData }: Route.ComponentProps) {
  const { tab, base, closeTo, kpis, whatsapp, permissions, whatsappTab } = loaderData;
  const failed = actionData && "intent" in actionData ? actionData : undefined;
  useToastEffect(failed?.toast);
  const resultOf = (name: string) => (failed?.intent === name ? failed.result : undefined);
  const tabHref = (to: Tab) => `${base}?tab=${to}`;

  return (
    <div className="space-y-6">
      <CommsOverview kpis={kpis} whatsapp={whatsapp} />

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
        <WhatsappTab
          tab={tab}
          quickSend={whatsappTab.quickSend}
          sendDialogOpen={Boolean(loaderData.sendDialog)}
          templates={loaderData.approved}
          recent={whatsappTab.recent}
          categories={whatsappTab.categories}
          messagesHref={base === "/comunicacao" ? "/comunicacao/mensagens" : "/communication/messages"}
          manage={permissions.manage}
          closeTo={closeTo}
          failed={failed}
        />
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
            {...quickSendRetry(failed, loaderData.sendDialog.draft)}
            patientName={loaderData.sendDialog.name}
            consent={loaderData.sendDialog.consent}
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

export const ErrorBoundary = RouteErrorBoundary;
