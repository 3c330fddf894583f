import { SurgeryFactsCard } from "~/components/surgery-facts-card";
import { formatDateTime } from "~/lib/dates";
import { ACCOMMODATION_LABELS, CBHPM_BAND_LABELS, labelFor } from "~/lib/enums";
import { URGENCY_REASON_LABELS } from "~/lib/fees/urgency";
import type { surgeryFeeScreen } from "~/models/surgery-fees.server";

type FeeScreen = NonNullable<ReturnType<typeof surgeryFeeScreen>>;

/** The surgery the fees are for: date, insurer, the porte table and insurer rules applied, accommodation and urgency. */
export function SurgeryFeeSummary({ screen }: { screen: Pick<FeeScreen, "surgery" | "payer" | "porteTable" | "rules" | "settings" | "urgency"> }) {
  const { surgery, payer, porteTable, rules, settings, urgency } = screen;
  return (
    <SurgeryFactsCard surgery={surgery}>
      <dt className="text-muted-foreground">Data</dt>
      <dd>{formatDateTime(surgery.scheduledDate)}</dd>
      <dt className="text-muted-foreground">Convênio</dt>
      <dd>{payer?.name ?? surgery.payerName ?? "-"}</dd>
      <dt className="text-muted-foreground">Tabela de portes</dt>
      <dd>{porteTable ? `CBHPM ${porteTable.edition} · ${labelFor(CBHPM_BAND_LABELS, porteTable.band)}` : "Nenhuma cadastrada"}</dd>
      <dt className="text-muted-foreground">Regras do convênio</dt>
      <dd>
        Auxiliares {rules.assistantPercents.join("/")}% · mesma via {rules.multipleSameRoutePercent}% · outra via {rules.multipleOtherRoutePercent}% · urgência +
        {rules.urgencySurchargePercent}%
      </dd>
      <dt className="text-muted-foreground">Acomodação</dt>
      <dd>{labelFor(ACCOMMODATION_LABELS, settings.accommodation)}</dd>
      <dt className="text-muted-foreground">Urgência</dt>
      <dd>
        {urgency.urgent ? "Sim" : "Não"}
        {settings.urgency === "auto" ? ` (automática${urgency.derived.reason ? `: ${URGENCY_REASON_LABELS[urgency.derived.reason]}` : ""})` : " (definida manualmente)"}
      </dd>
    </SurgeryFactsCard>
  );
}
