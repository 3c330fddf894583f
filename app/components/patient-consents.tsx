import { Link } from "~/components/ui/link";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { CONSENT_PURPOSE_LABELS, CONSENT_SOURCE_LABELS, type ConsentPurpose } from "~/lib/consents";
import { formatDateTime } from "~/lib/dates";

export interface ConsentEventView {
  granted: boolean;
  source: keyof typeof CONSENT_SOURCE_LABELS;
  at: Date | string;
  recordedBy: string | null;
}

export function eventText(event: ConsentEventView): string {
  return `${event.granted ? "Autorizado" : "Revogado"} em ${formatDateTime(event.at)} · ${CONSENT_SOURCE_LABELS[event.source]}`;
}

/** The record's 'Consentimentos' card: each purpose, its current state, and a link to record a decision. */
export function ConsentsCard({
  consents,
  hrefFor,
}: {
  consents: { purpose: ConsentPurpose; current: ConsentEventView | null }[];
  /** The dialog's URL for a purpose; null when the user may not record consents. */
  hrefFor: ((purpose: ConsentPurpose) => string) | null;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">Consentimentos</CardTitle>
        <CardDescription>Cada autorização ou revogação fica registrada com data e origem; o histórico não é apagado.</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="divide-y text-sm" aria-label="Consentimentos do paciente">
          {consents.map(({ purpose, current }) => (
            <li key={purpose} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2" data-testid="consent" data-purpose={purpose}>
              <span className="min-w-0 flex-1 font-medium">{CONSENT_PURPOSE_LABELS[purpose]}</span>
              <Badge variant={current?.granted ? "success" : "outline"}>
                {current ? (current.granted ? "Autorizado" : "Revogado") : "Não registrado"}
              </Badge>
              {current ? <span className="w-full text-xs text-muted-foreground">{eventText(current)}</span> : null}
              {hrefFor ? (
                <Link to={hrefFor(purpose)} preventScrollReset className="text-xs font-medium underline underline-offset-4" aria-label={`Registrar: ${CONSENT_PURPOSE_LABELS[purpose]}`}>
                  Registrar
                </Link>
              ) : null}
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
