import type { SubmissionResult } from "@conform-to/react";
import { Form } from "react-router";
import { useBusy } from "~/lib/use-busy";
import { DialogFooter, UrlDialog } from "~/components/dialog";
import { Button, ButtonLink } from "~/components/ui/button";

/**
 * Anonymisation (admins): says exactly what is removed and what is kept and why, and asks the
 * administrator to confirm. A plain POST form: works without JavaScript.
 */
export function AnonymiseDialog({
  patientName,
  closeTo,
  lastResult,
}: {
  patientName: string;
  closeTo: string;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const busy = useBusy("anonymise");
  const error = lastResult?.error?.confirm?.[0] ?? lastResult?.error?.[""]?.[0] ?? null;
  return (
    <UrlDialog title="Anonimizar paciente" description={`Pedido de eliminação dos dados de ${patientName} (LGPD, art. 18).`} closeTo={closeTo} maxWidth="2xl">
      <div className="space-y-4 text-sm">
        <section aria-labelledby="anonymise-removed">
          <h3 id="anonymise-removed" className="font-semibold">
            Removido ou substituído
          </h3>
          <ul className="list-disc space-y-1 pl-5">
            <li>Nome (passa a ser “Paciente anonimizado nº …”), CPF, telefone, e-mail, endereço e número da carteirinha.</li>
            <li>Data de nascimento: fica só o ano (para estatísticas por faixa etária).</li>
            <li>Consentimento de WhatsApp: revogado; mensagens na fila são canceladas.</li>
            <li>Mensagens: nome, número e texto.</li>
            <li>O nome dentro de tarefas e de observações de documentos; os nomes dos arquivos enviados.</li>
          </ul>
        </section>
        <section aria-labelledby="anonymise-kept">
          <h3 id="anonymise-kept" className="font-semibold">
            Mantido, e por quê
          </h3>
          <ul className="list-disc space-y-1 pl-5">
            <li>
              Prontuário: consultas, cirurgias e suas etapas, histórico médico, anotações clínicas e os arquivos dos documentos — guarda
              mínima de 20 anos (Lei 13.787/2018).
            </li>
            <li>Financeiro: valores faturados e recebidos, guias, convênio e lançamentos — obrigações fiscais e contábeis.</li>
            <li>Histórico de consentimentos e trilha de auditoria — prova do que foi autorizado e de quem acessou (a trilha não guarda os dados).</li>
          </ul>
        </section>
        <p className="text-muted-foreground">
          A anonimização não pode ser desfeita. Backups feitos antes dela ainda contêm os dados até saírem da retenção.
        </p>
      </div>
      <Form method="post" className="mt-4 space-y-3" preventScrollReset>
        <input type="hidden" name="intent" value="anonymise" />
        <label className="flex items-start gap-2 text-sm">
          <input type="checkbox" name="confirm" value="sim" className="mt-0.5 size-4" aria-invalid={error ? true : undefined} aria-describedby={error ? "anonymise-error" : undefined} />
          <span>Entendo que os dados de identificação de {patientName} serão removidos definitivamente.</span>
        </label>
        {error ? (
          <p id="anonymise-error" className="text-sm text-destructive" role="alert">
            {error}
          </p>
        ) : null}
        <DialogFooter>
          <ButtonLink to={closeTo} variant="outline" preventScrollReset>
            Cancelar
          </ButtonLink>
          <Button type="submit" variant="destructive" disabled={busy}>
            {busy ? "Anonimizando..." : "Anonimizar"}
          </Button>
        </DialogFooter>
      </Form>
    </UrlDialog>
  );
}
