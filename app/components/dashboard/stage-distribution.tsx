import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Link } from "~/components/ui/link";
import { formatCount, plural } from "~/lib/text";

/** The dashboard's 'Cirurgias por etapa': each stage's count, a bar of its share, a link to its surgeries. */
export function StageDistribution({ stages }: { stages: ReadonlyArray<{ stage: string; label: string; count: number }> }) {
  const total = stages.reduce((sum, s) => sum + s.count, 0);
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardTitle as="h2" className="text-lg">
          Cirurgias por etapa
        </CardTitle>
        <CardDescription>
          {total === 0 ? "Nenhuma cirurgia cadastrada" : `${plural(total, "cirurgia", "cirurgias")} no pipeline`}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-1" aria-label="Distribuição das cirurgias por etapa">
          {stages.map((s) => {
            // Share of all surgeries, to one decimal (the bar's width).
            const share = total === 0 ? 0 : Math.round((s.count / total) * 1000) / 10;
            return (
              <li key={s.stage}>
                <Link
                  to={`/surgeries?stage=${s.stage}`}
                  aria-label={`${s.label}: ${plural(s.count, "cirurgia", "cirurgias")}`}
                  className="grid gap-1 rounded-md px-2 py-1.5 transition-colors hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                >
                  <span className="flex items-center justify-between gap-2 text-sm">
                    <span>{s.label}</span>
                    <span className="font-medium tabular-nums">{formatCount(s.count)}</span>
                  </span>
                  <span aria-hidden="true" className="h-1.5 overflow-hidden rounded-full bg-muted">
                    <span
                      data-testid={`stage-bar-${s.stage}`}
                      className="block h-full rounded-full bg-primary"
                      style={{ width: `${share}%` }}
                    />
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      </CardContent>
    </Card>
  );
}
