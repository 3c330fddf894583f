import type { ReactNode } from "react";
import { Form } from "react-router";
import { Link } from "~/components/ui/link";
import { DialogFooter, UrlDialog } from "~/components/dialog";
import { receivableBadge } from "~/components/receivable-badge";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button, ButtonLink } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import { formatDate, formatDateTime, formatIsoDate, todayIsoInClinic } from "~/lib/dates";
import { FEE_LINE_ROLE_LABELS, labelFor } from "~/lib/enums";
import { centsToReaisInput, formatBRL } from "~/lib/money";
import {
  GLOSA_APPEAL_OUTCOME_LABELS,
  RECEIVABLE_MOVE_KIND_LABELS,
  RECEIVABLE_STATUS_LABELS,
  REOPENABLE_STATUSES,
  canMoveReceivable,
} from "~/lib/receivables";
import { pathWithParams } from "~/lib/url";
import type { getReceivable, feeLinesOf, receivableHistory, receivableMoney } from "~/models/receivable.server";

export interface ReceivableView extends NonNullable<ReturnType<typeof getReceivable>> {
  history: ReturnType<typeof receivableHistory>;
  money: ReturnType<typeof receivableMoney>;
  feeLines: ReturnType<typeof feeLinesOf>;
  panel: string | null;
}

interface ActionAnswer {
  intent?: string;
  toast?: { message: string };
  result?: { error?: Record<string, string[] | null> | null } | null;
}

const DIALOG_INTENTS = new Set(["pending", "glosa", "pay", "appeal", "reopen", "bill"]);

/** The refused write of this dialog, with the messages of its fields (JavaScript on or off). */
function Refusal({ answer }: { answer?: ActionAnswer }) {
  if (!answer?.intent || !DIALOG_INTENTS.has(answer.intent)) return null;
  const fieldMessages = Object.values(answer.result?.error ?? {}).flatMap((messages) => messages ?? []);
  return (
    <Alert variant="destructive">
      <AlertDescription>
        <p role="alert">{answer.toast?.message ?? "Não foi possível salvar."}</p>
        {fieldMessages.length ? (
          <ul className="mt-1 list-disc pl-5">
            {[...new Set(fieldMessages)].map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        ) : null}
      </AlertDescription>
    </Alert>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="font-medium">{children}</dd>
    </div>
  );
}

function Hidden({ intent, id }: { intent: string; id: number }) {
  return (
    <>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
    </>
  );
}

/**
 * `?view=ID` on Cirurgias a receber: the receivable's facts, glosas, payments and history, and for
 * admins the moves its status allows (each a plain POST form; the form of a glosa, a payment, an
 * appeal or a 'reabrir' opens with `&acao=`).
 */
export function ReceivableDialog({
  viewing,
  canEdit,
  closeTo,
  actionData,
}: {
  viewing: ReceivableView;
  canEdit: boolean;
  closeTo: string;
  actionData?: ActionAnswer;
}) {
  const [pathname, search = ""] = closeTo.split("?");
  const viewHref = pathWithParams(pathname, search, { view: viewing.id });
  const panelHref = (panel: string) => pathWithParams(pathname, search, { view: viewing.id, acao: panel });
  const status = viewing.status ?? "";
  const { money } = viewing;
  const owed = Math.max((viewing.billedAmountCents ?? 0) - money.paidCents, 0);
  const today = todayIsoInClinic();

  return (
    <UrlDialog title={`${viewing.surgeryType} — ${viewing.patientName}`} closeTo={closeTo} maxWidth="3xl">
      <Refusal answer={actionData} />
      <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
        <Fact label="Status">
          <Badge variant={receivableBadge(status)}>{labelFor(RECEIVABLE_STATUS_LABELS, status)}</Badge>
        </Fact>
        <Fact label="Data da cirurgia">{formatDate(viewing.scheduledDate)}</Fact>
        <Fact label="Pagador">{viewing.payerName || "-"}</Fact>
        <Fact label="Guia">{viewing.guideNumber || "-"}</Fact>
        <Fact label="Valor faturado">{formatBRL(viewing.billedAmountCents)}</Fact>
        <Fact label="Recebido">{formatBRL(money.paidCents)}</Fact>
        <Fact label="Glosa em aberto">{formatBRL(money.openGlosaCents)}</Fact>
        <Fact label="Recuperado / perdido">
          {formatBRL(money.recoveredCents)} / {formatBRL(money.lostCents)}
        </Fact>
      </dl>

      {money.glosas.length ? (
        <section aria-labelledby="glosas-title" className="space-y-2">
          <h3 id="glosas-title" className="text-sm font-semibold">
            Glosas
          </h3>
          <ul className="space-y-2 text-sm">
            {money.glosas.map((glosa) => (
              <li key={glosa.id} className="rounded-md border p-2">
                <p>
                  <strong>{glosa.tissCode}</strong> — {glosa.reason}: {formatBRL(glosa.deniedCents)} glosado
                  {glosa.appealOutcome ? `; ${GLOSA_APPEAL_OUTCOME_LABELS[glosa.appealOutcome]}: ${formatBRL(glosa.recoveredCents)} recuperado, ${formatBRL(glosa.lostCents)} perdido` : ""}
                </p>
                {glosa.lines.length ? (
                  <ul className="ml-4 list-disc text-muted-foreground">
                    {glosa.lines.map((line, i) => (
                      <li key={i}>
                        {line.description}: {formatBRL(line.deniedCents)}
                      </li>
                    ))}
                  </ul>
                ) : null}
                {glosa.appealSentOn ? (
                  <p className="text-muted-foreground">
                    Recurso enviado em {formatIsoDate(glosa.appealSentOn)}: {glosa.appealJustification}
                  </p>
                ) : canEdit && !glosa.appealOutcome ? (
                  <Link className="text-primary underline-offset-4 hover:underline" to={`${panelHref("recurso")}&glosa=${glosa.id}`} preventScrollReset>
                    Registrar recurso
                  </Link>
                ) : null}
                {canEdit && viewing.panel === "recurso" && !glosa.appealSentOn && !glosa.appealOutcome ? (
                  <Form method="post" preventScrollReset className="mt-2 space-y-2" aria-label={`Recurso da glosa ${glosa.tissCode}`}>
                    <Hidden intent="appeal" id={viewing.id} />
                    <input type="hidden" name="glosaId" value={glosa.id} />
                    <Label htmlFor={`appeal-text-${glosa.id}`}>Justificativa do recurso</Label>
                    <Textarea id={`appeal-text-${glosa.id}`} name="justification" rows={3} required maxLength={4000} />
                    <Label htmlFor={`appeal-date-${glosa.id}`}>Enviado em</Label>
                    <Input id={`appeal-date-${glosa.id}`} type="date" name="sentOn" defaultValue={today} max={today} required />
                    <Button type="submit" size="sm">
                      Salvar recurso
                    </Button>
                  </Form>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {money.payments.length ? (
        <section aria-labelledby="payments-title" className="space-y-1 text-sm">
          <h3 id="payments-title" className="font-semibold">
            Pagamentos
          </h3>
          <ul>
            {money.payments.map((payment) => (
              <li key={payment.id}>
                {formatIsoDate(payment.paidOn)}: {formatBRL(payment.amountCents)}
                {payment.glosaId ? " (recuperado em recurso)" : ""}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {canEdit ? (
        <section aria-label="Ações do recebível" className="space-y-3 border-t pt-3">
          <div className="flex flex-wrap gap-2">
            {canMoveReceivable(status, "faturado") ? (
              <Form method="post" preventScrollReset>
                <Hidden intent="bill" id={viewing.id} />
                <Button type="submit" size="sm">
                  Marcar como faturado
                </Button>
              </Form>
            ) : null}
            {canMoveReceivable(status, "pendente") ? (
              <Form method="post" preventScrollReset>
                <Hidden intent="pending" id={viewing.id} />
                <Button type="submit" size="sm" variant="outline">
                  Marcar como pendente
                </Button>
              </Form>
            ) : null}
            {canMoveReceivable(status, "glosa") ? (
              <ButtonLink to={panelHref("glosa")} size="sm" variant="outline" preventScrollReset>
                Registrar glosa
              </ButtonLink>
            ) : null}
            {canMoveReceivable(status, "pago") ? (
              <ButtonLink to={panelHref("pagar")} size="sm" variant="outline" preventScrollReset>
                {status === "glosa" ? "Registrar resultado do recurso" : "Registrar pagamento"}
              </ButtonLink>
            ) : null}
            {(REOPENABLE_STATUSES as readonly string[]).includes(status) ? (
              <ButtonLink to={panelHref("reabrir")} size="sm" variant="ghost" preventScrollReset>
                Reabrir
              </ButtonLink>
            ) : null}
          </div>

          {viewing.panel === "glosa" && canMoveReceivable(status, "glosa") ? (
            <Form method="post" preventScrollReset className="space-y-2" aria-label="Registrar glosa">
              <Hidden intent="glosa" id={viewing.id} />
              <div className="grid gap-2 sm:grid-cols-[8rem_1fr]">
                <div className="space-y-1">
                  <Label htmlFor="glosa-code">Código TISS</Label>
                  <Input id="glosa-code" name="tissCode" inputMode="numeric" pattern="\d{4}" maxLength={4} required placeholder="1705" />
                </div>
                <div className="space-y-1">
                  <Label htmlFor="glosa-reason">Motivo</Label>
                  <Input id="glosa-reason" name="reason" required maxLength={500} />
                </div>
              </div>
              {viewing.feeLines.length ? (
                <fieldset className="space-y-1">
                  <legend className="text-sm font-medium">Valor glosado por linha de honorários</legend>
                  {viewing.feeLines.map((line) => (
                    <div key={line.id} className="grid grid-cols-[1fr_9rem] items-center gap-2">
                      <input type="hidden" name="feeLine" value={line.id} />
                      <Label htmlFor={`denied-${line.id}`}>
                        {labelFor(FEE_LINE_ROLE_LABELS, line.role)} · {line.doctorName} ({formatBRL(line.amountCents)})
                      </Label>
                      <Input id={`denied-${line.id}`} name="denied" inputMode="decimal" placeholder="0,00" />
                    </div>
                  ))}
                </fieldset>
              ) : (
                <div className="space-y-1">
                  <Label htmlFor="glosa-total">Valor glosado (R$)</Label>
                  <Input id="glosa-total" name="deniedTotal" inputMode="decimal" required placeholder="0,00" />
                </div>
              )}
              <Button type="submit" size="sm" variant="destructive">
                Registrar glosa
              </Button>
            </Form>
          ) : null}

          {viewing.panel === "pagar" && canMoveReceivable(status, "pago") ? (
            <Form method="post" preventScrollReset className="space-y-2" aria-label="Registrar pagamento">
              <Hidden intent="pay" id={viewing.id} />
              <p className="text-sm text-muted-foreground">
                {status === "glosa"
                  ? `Valor recuperado no recurso (em aberto: ${formatBRL(money.openGlosaCents)}). Zero encerra a glosa como perdida.`
                  : `Em aberto: ${formatBRL(owed)}. Um valor menor abre uma glosa da diferença.`}
              </p>
              <div className="grid gap-2 sm:grid-cols-2">
                <div className="space-y-1">
                  <Label htmlFor="pay-date">Data do pagamento</Label>
                  <Input id="pay-date" type="date" name="paidOn" defaultValue={today} max={today} required />
                </div>
                <div className="space-y-1">
                  <Label htmlFor="pay-amount">Valor recebido (R$)</Label>
                  <Input
                    id="pay-amount"
                    name="amount"
                    inputMode="decimal"
                    defaultValue={centsToReaisInput(status === "glosa" ? money.openGlosaCents : owed)}
                  />
                </div>
                {status !== "glosa" ? (
                  <>
                    <div className="space-y-1">
                      <Label htmlFor="pay-code">Código TISS da glosa (se parcial)</Label>
                      <Input id="pay-code" name="tissCode" inputMode="numeric" pattern="\d{4}" maxLength={4} />
                    </div>
                    <div className="space-y-1">
                      <Label htmlFor="pay-reason">Motivo da glosa (se parcial)</Label>
                      <Input id="pay-reason" name="glosaReason" maxLength={500} />
                    </div>
                  </>
                ) : null}
              </div>
              <Button type="submit" size="sm">
                Registrar pagamento
              </Button>
            </Form>
          ) : null}

          {viewing.panel === "reabrir" && (REOPENABLE_STATUSES as readonly string[]).includes(status) ? (
            <Form method="post" preventScrollReset className="space-y-2" aria-label="Reabrir recebível">
              <Hidden intent="reopen" id={viewing.id} />
              <Label htmlFor="reopen-reason">Por que desfazer o faturamento?</Label>
              <Textarea id="reopen-reason" name="reason" rows={2} required minLength={5} maxLength={500} />
              <Button type="submit" size="sm" variant="destructive">
                Reabrir como Realizado
              </Button>
            </Form>
          ) : null}
        </section>
      ) : null}

      <section aria-labelledby="history-title" className="space-y-1 text-sm">
        <h3 id="history-title" className="font-semibold">
          Histórico
        </h3>
        {viewing.history.length ? (
          <ol className="space-y-1">
            {viewing.history.map((move) => (
              <li key={move.id} className="text-muted-foreground">
                <span className="tabular-nums">{formatDateTime(move.createdAt)}</span> · {RECEIVABLE_MOVE_KIND_LABELS[move.kind]}:{" "}
                {move.fromStatus ? labelFor(RECEIVABLE_STATUS_LABELS, move.fromStatus) : "—"} → {move.toStatus ? labelFor(RECEIVABLE_STATUS_LABELS, move.toStatus) : "fora dos recebíveis"}
                {move.amountCents !== null ? ` (${formatBRL(move.amountCents)})` : ""}
                {move.reason ? ` — ${move.reason}` : ""}
                {move.movedByName ? ` · ${move.movedByName}` : ""}
              </li>
            ))}
          </ol>
        ) : (
          <p className="text-muted-foreground">Nenhuma movimentação registrada.</p>
        )}
      </section>
      <DialogFooter>
        {viewing.panel ? (
          <ButtonLink to={viewHref} variant="ghost" preventScrollReset>
            Voltar
          </ButtonLink>
        ) : null}
        <ButtonLink to={closeTo} variant="outline" preventScrollReset>
          Fechar
        </ButtonLink>
      </DialogFooter>
    </UrlDialog>
  );
}
