import type { ReactNode } from "react";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";

/**
 * A surgery's head card on its own screens (/pipeline/:id, /surgeries/:id/honorarios): 'type — patient'
 * and the screen's facts as `<dt>`/`<dd>` pairs, two pairs a row on wide screens; `after` goes under them.
 */
export function SurgeryFactsCard({
  surgery,
  children,
  after,
}: {
  surgery: { surgeryType: string; patientName: string };
  children: ReactNode;
  after?: ReactNode;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">
          {surgery.surgeryType} — {surgery.patientName}
        </CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr_auto_1fr]">{children}</dl>
        {after}
      </CardContent>
    </Card>
  );
}
