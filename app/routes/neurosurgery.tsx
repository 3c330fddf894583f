import { Brain, Calculator, Layers, Search } from "~/components/icons";
import { SearchForm } from "~/components/data-table";
import { EmptyState } from "~/components/empty-state";
import { ExportLink } from "~/components/export-link";
import { FilterBar } from "~/components/filter-bar";
import { RouteErrorBoundary } from "~/components/route-error";
import { StatCard } from "~/components/stat-card";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { requirePermission } from "~/.server/auth";
import { routeUrl } from "~/.server/route-url";
import { formatBRL } from "~/lib/money";
import { NEURO_AREAS, type NeuroGroup, filterNeuroGroups, neuroStats, parseNeuroArea } from "~/lib/neurosurgery";
import type { Route } from "./+types/neurosurgery";

export const handle = { title: "Neurocirurgia", subtitle: "Catálogo dos grupos de procedimentos de coluna e crânio (CBHPM)" };
export const meta: Route.MetaFunction = () => [{ title: "Neurocirurgia · Sinapse" }];

/** `?q=` searches, `?area=Coluna|Crânio` filters; the stat cards follow both. */
export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "procedures", "view");
  const url = routeUrl(request);
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 200);
  const area = parseNeuroArea(url.searchParams.get("area"));
  const groups = filterNeuroGroups(q, area);
  return { groups, q, area, stats: neuroStats(groups), listHref: `${url.pathname}${url.search}` };
}

const reais = (value: number) => formatBRL(Math.round(value * 100));

export default function NeurosurgeryPage({ loaderData }: Route.ComponentProps) {
  const { groups, q, area, stats, listHref } = loaderData;
  return (
    <div className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard title="Grupos" value={stats.groups} icon={Layers} description="Grupos de procedimentos exibidos" />
        <StatCard title="Coluna" value={stats.perArea.Coluna} icon={Brain} description="Grupos da área Coluna" />
        <StatCard title="Crânio" value={stats.perArea["Crânio"]} icon={Brain} description="Grupos da área Crânio" />
        <StatCard
          title="Preço médio principal"
          value={stats.averagePriceBRL === null ? "-" : reais(stats.averagePriceBRL)}
          icon={Calculator}
          description={`Média de ${stats.pricedGroups} ${stats.pricedGroups === 1 ? "grupo com preço" : "grupos com preço"}`}
        />
      </div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <SearchForm placeholder="Buscar por grupo, código ou OPME..." label="Buscar grupos" className="w-full max-w-md" />
        <ExportLink listHref={listHref} label="Relatório" successToast="Relatório exportado com sucesso" />
      </div>
      <FilterBar
        label="Filtrar por área"
        fields={[{ name: "area", label: "Área", all: "Todas as áreas", options: NEURO_AREAS.map((a) => ({ value: a, label: a })), value: area }]}
        keep={{ q }}
      />
      {groups.length === 0 ? (
        <EmptyState icon={Search} title="Nenhum grupo encontrado" description="Tente outra busca ou limpe o filtro de área." />
      ) : (
        <ul className="grid gap-4 lg:grid-cols-2" aria-label="Grupos de neurocirurgia">
          {groups.map((group) => (
            <li key={group.id}>
              <GroupCard group={group} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function GroupCard({ group }: { group: NeuroGroup }) {
  const { principal } = group;
  return (
    <Card className="h-full gap-3" aria-labelledby={`group-${group.id}`}>
      <CardHeader>
        <div className="flex items-start justify-between gap-2">
          <CardTitle as="h2" id={`group-${group.id}`} className="text-base">
            {group.groupTitle}
          </CardTitle>
          <Badge variant={group.area === "Coluna" ? "secondary" : "outline"}>{group.area}</Badge>
        </div>
        <CardDescription className="font-mono text-xs">{group.id}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-2 text-sm">
        <div>
          <p className="font-medium">
            <span className="font-mono">{principal.code}</span> · {principal.title}
          </p>
          <p className="text-muted-foreground">
            {principal.priceBRL === null ? "Preço: a confirmar na tabela vigente" : `${reais(principal.priceBRL)} (${principal.year})`}
          </p>
        </div>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
          <dt className="text-muted-foreground">Códigos sequenciais</dt>
          <dd className="font-mono">{group.sequentialCodes.length ? group.sequentialCodes.join(", ") : "-"}</dd>
          <dt className="text-muted-foreground">OPMEs recomendadas</dt>
          <dd>{group.recommendedOpmes.length ? group.recommendedOpmes.join(", ") : "-"}</dd>
          <dt className="text-muted-foreground">Observações</dt>
          <dd>{group.notes}</dd>
        </dl>
      </CardContent>
    </Card>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
