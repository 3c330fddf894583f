import { Stethoscope } from "~/components/icons";
import { Link } from "~/components/ui/link";
import { ListPager } from "~/components/data-table";
import { EmptyState } from "~/components/empty-state";
import { loadErrorBoundary } from "~/components/load-error";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { CachedElement, cacheKeyOf } from "~/lib/markup-cache";
import { requirePermission } from "~/.server/auth";
import { routeUrl } from "~/.server/route-url";
import { parseListState } from "~/lib/list-params";
import { formatCount, plural } from "~/lib/text";
import { SURGICAL_GROUP_LIST } from "~/lib/lists";
import { listSurgicalGroups } from "~/models/surgical-group.server";
import type { Route } from "./+types/surgical-groups";

export const handle = { title: "Grupos Cirúrgicos", subtitle: "Médicos agrupados por especialidade, com suas cirurgias" };
export const meta: Route.MetaFunction = () => [{ title: "Grupos Cirúrgicos · Sinapse" }];

export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "doctors", "view");
  const { page } = parseListState(routeUrl(request), SURGICAL_GROUP_LIST);
  return listSurgicalGroups(page);
}

export default function SurgicalGroupsPage({ loaderData }: Route.ComponentProps) {
  const { groups, total, page, pageSize } = loaderData;
  if (total === 0) {
    return (
      <EmptyState
        icon={Stethoscope}
        title="Nenhum médico cadastrado"
        description="Os grupos aparecem aqui assim que houver médicos cadastrados."
        action={
          <Link to="/doctors" className="text-primary underline underline-offset-4">
            Ir para Médicos
          </Link>
        }
      />
    );
  }
  return (
    <div className="space-y-4">
      {/* The groups are the page the data cache keeps until a write (listSurgicalGroups): their markup is kept with it. */}
      <CachedElement as="div" id="surgical-groups" className="space-y-4" cacheKey={cacheKeyOf(["surgical-groups"], groups)}>
        {() => groups.map((group) => (
          <Card key={group.specialty} className="gap-3" aria-labelledby={`group-${group.specialty}`}>
            <CardHeader>
              <CardTitle as="h2" id={`group-${group.specialty}`} className="text-base">
                {group.specialty}
              </CardTitle>
              <CardDescription>
                {plural(group.doctorCount, "médico", "médicos")} · {plural(group.surgeryCount, "cirurgia", "cirurgias")}
              </CardDescription>
            </CardHeader>
            <CardContent>
              <Table>
                <caption className="sr-only">Médicos de {group.specialty}</caption>
                <TableHeader>
                  <TableRow>
                    <TableHead>Médico</TableHead>
                    <TableHead>CRM</TableHead>
                    <TableHead className="w-32 text-right">Cirurgias</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {group.doctors.map((doctor) => (
                    <TableRow key={doctor.id}>
                      <TableCell className="font-medium">
                        {doctor.name} {doctor.active ? null : <Badge variant="secondary">Inativo</Badge>}
                      </TableCell>
                      <TableCell>{doctor.crmUf ? `${doctor.crm}/${doctor.crmUf}` : doctor.crm}</TableCell>
                      <TableCell className="text-right tabular-nums">{formatCount(doctor.surgeries)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </CardContent>
          </Card>
        ))}
      </CachedElement>
      <ListPager total={total} page={page} pageSize={pageSize} />
    </div>
  );
}

/** SPEC §8: a failure to read the groups says 'Erro ao carregar grupos cirúrgicos'. */
export const ErrorBoundary = loadErrorBoundary("Erro ao carregar grupos cirúrgicos");
