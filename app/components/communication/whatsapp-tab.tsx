import { Plus, SquarePen } from "~/components/icons";
import { useLocation } from "react-router";
import { Link } from "~/components/ui/link";
import { RecentMessages } from "~/components/comms-messages";
import { type QuickSendDraft, type QuickSendTemplate, type RefusedForm, QuickSendCard, quickSendRetry } from "~/components/comms-quick-send";
import { Badge } from "~/components/ui/badge";
import { ButtonLink } from "~/components/ui/button";
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { CachedElement, cacheKeyOf } from "~/lib/markup-cache";
import { TEMPLATE_CATEGORY_LABELS, TEMPLATE_STATUS_LABELS, type TemplateStatus } from "~/lib/enums";
import { previewOf } from "~/lib/message-template";
import type { PickerOption } from "~/lib/picker-options";
import type { recentMessages } from "~/models/message.server";

/** The quick send as the loader prepares it (quickSendState in comms.server.ts). */
export interface QuickSendState {
  draft: QuickSendDraft;
  patientOptions: readonly PickerOption[];
  name: string | null;
  consent: string | null;
}

/** The 'WhatsApp Business' tab: the quick send (senders), the recent messages and the templates by category. */
export function WhatsappTab({
  tab,
  quickSend,
  sendDialogOpen,
  templates,
  recent,
  categories,
  messagesHref,
  manage,
  closeTo,
  failed,
}: {
  tab: string;
  /** null for a role that cannot send. */
  quickSend: QuickSendState | null;
  /** The quick send is open in its dialog: the card stays out of the page. */
  sendDialogOpen: boolean;
  templates: readonly QuickSendTemplate[];
  recent: ReturnType<typeof recentMessages>;
  categories: TemplateCategoryList;
  messagesHref: string;
  manage: boolean;
  closeTo: string;
  failed: RefusedForm | undefined;
}) {
  const { pathname, search } = useLocation();
  return (
    <div className="grid gap-6 xl:grid-cols-2">
      {sendDialogOpen ? null : quickSend ? (
        // Its markup is kept for the same URL (the form posts to it), templates, patient options and
        // draft (ADR 0025): the form a sender meets on every view. Not after a refused send, whose
        // values and message it shows.
        <CachedElement
          as="div"
          id="quick-send"
          cacheKey={failed ? undefined : cacheKeyOf(["quick-send", pathname + search, quickSend.draft, quickSend.name, quickSend.consent], templates, quickSend.patientOptions)}
        >
          {() => (
            <QuickSendCard
              key={recent[0]?.id ?? 0}
              templates={templates}
              patientOptions={
                failed?.intent === "send" && failed.result?.initialValue?.patientId && !quickSend.draft.patientId
                  ? [{ id: Number(failed.result.initialValue.patientId), label: "Paciente selecionado" }, ...quickSend.patientOptions]
                  : quickSend.patientOptions
              }
              {...quickSendRetry(failed, quickSend.draft)}
              patientName={quickSend.name}
              consent={quickSend.consent}
              keep={{ tab }}
            />
          )}
        </CachedElement>
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
            <ButtonLink to={messagesHref} variant="outline" size="sm">
              Ver todas
            </ButtonLink>
          </CardAction>
        </CardHeader>
        <CardContent>
          <RecentMessages messages={recent} replyTo={closeTo} />
        </CardContent>
      </Card>
      <TemplatesCard categories={categories} manage={manage} closeTo={closeTo} />
    </div>
  );
}

type TemplateCategoryList = {
  category: keyof typeof TEMPLATE_CATEGORY_LABELS;
  templates: { id: number; title: string; status: TemplateStatus; body: string; metaName: string | null; metaLanguage: string }[];
}[];

function TemplatesCard({
  categories,
  manage,
  closeTo,
}: {
  categories: TemplateCategoryList;
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
      {/* Kept while the same templates are shown to the same rights (ADR 0025): `templatesByCategory` keeps them until a write. */}
      <CachedElement
        as="div"
        id="templates-by-category"
        cacheKey={cacheKeyOf(["templates", manage, closeTo], categories)}
        className="card-content grid gap-6 lg:grid-cols-2"
      >
        {() => categories.map(({ category, templates }, index) => (
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
      </CachedElement>
    </Card>
  );
}
