import { Bot, FolderOpen, Send, Users } from "~/components/icons";
import { StatCard } from "~/components/stat-card";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { formatCount } from "~/lib/text";
import type { CommsKpis } from "~/models/comms.server";

/** The screen's head: the comms KPIs and, when WhatsApp or its webhook is not configured, what is missing. */
export function CommsOverview({ kpis, whatsapp }: { kpis: CommsKpis; whatsapp: { sending: boolean; webhook: boolean } }) {
  return (
    <>
  <section aria-label="Indicadores de comunicação" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
    <StatCard title="Pacientes com opt-in" value={formatCount(kpis.optInPatients)} icon={Users} description="Autorizaram mensagens por WhatsApp" />
    <StatCard title="Enviadas (30 dias)" value={formatCount(kpis.sent30d)} icon={Send} description="Enviadas, entregues ou lidas" />
    <StatCard title="Pastas no Drive" value={formatCount(kpis.driveFolders)} icon={FolderOpen} description="Pastas de pacientes no Google Drive" />
    <StatCard title="Regras ativas" value={formatCount(kpis.activeRules)} icon={Bot} description="Automações de envio ligadas" />
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
    </>
  );
}
