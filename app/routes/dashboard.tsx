import { Activity, ArrowRight, Calendar, CircleCheck, Clock, Receipt, Star, Stethoscope, Users, Wallet, type IconComponent } from "~/components/icons";
import { Link } from "~/components/ui/link";
import { RouteErrorBoundary } from "~/components/route-error";
import { StageDistribution } from "~/components/dashboard/stage-distribution";
import { StatCard } from "~/components/stat-card";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { requireActiveUser } from "~/.server/auth";
import { formatInClinic } from "~/lib/dates";
import { CachedElement, cacheKeyOf } from "~/lib/markup-cache";
import { formatBRL } from "~/lib/money";
import { type Area, can } from "~/lib/permissions";
import { formatCount, plural } from "~/lib/text";
import { type MonthTrend, type Ratio, getCachedDashboardStats } from "~/models/dashboard.server";
import type { Route } from "./+types/dashboard";

export const handle = { title: "Dashboard", subtitle: "Visão geral da clínica" };
export const meta: Route.MetaFunction = () => [{ title: "Dashboard · Sinapse" }];

const TREND_LABEL = "vs last month";
const NO_PREVIOUS_MONTH = "sem dados do mês anterior";
const NO_DATA = "—";

const QUICK_LINKS: ReadonlyArray<{ to: string; area: Area; title: string; description: string; icon: IconComponent }> = [
  { to: "/appointments", area: "appointments", title: "Consultas", description: "Agenda e marcação de consultas", icon: Calendar },
  { to: "/patients", area: "patients", title: "Pacientes", description: "Cadastro e histórico dos pacientes", icon: Users },
  { to: "/doctors", area: "doctors", title: "Médicos", description: "Equipe médica e especialidades", icon: Stethoscope },
  { to: "/surgeries", area: "surgeries", title: "Cirurgias", description: "Cirurgias agendadas e realizadas", icon: Activity },
];

export async function loader({ request }: Route.LoaderArgs) {
  // Every role has a dashboard; what it shows follows the role's permissions below.
  const user = await requireActiveUser(request);
  const quickLinks = QUICK_LINKS.filter((link) => can(user, link.area, "view")).map(({ to, title, description }) => ({
    to,
    title,
    description,
  }));
  let stats = null;
  try {
    // Revenue is computed only for those who may see financial data (SPEC §6: admin).
    stats = getCachedDashboardStats({ includeRevenue: can(user, "financial", "view") });
  } catch (error) {
    // SPEC §8: dashboard statistics errors are logged, not shown; the screen says figures are unavailable.
    console.error("dashboard statistics failed", error);
  }
  return { stats, quickLinks };
}

const oneDecimal = new Intl.NumberFormat("pt-BR", { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** The trend badge, or nothing when last month had no data (the hint says so instead). */
function trendOf(trend: MonthTrend) {
  return trend.percent === null ? undefined : { value: trend.percent, label: TREND_LABEL };
}

/** A line under a monthly figure: what this month holds, plus the hint when there is no base. */
function monthNote(text: string, trend: MonthTrend) {
  return trend.percent === null ? `${text} · ${NO_PREVIOUS_MONTH}` : text;
}

function percentText(rate: Ratio) {
  return rate.percent === null ? NO_DATA : `${oneDecimal.format(rate.percent)}%`;
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { stats, quickLinks } = loaderData;

  // The figures are the stats the data cache keeps until a write (or the next minute), and the quick
  // links follow the user's rights: the markup is kept per both (docs/decisions/0025).
  return (
    <CachedElement as="div" id="dashboard" className="space-y-6" cacheKey={stats ? cacheKeyOf(["dashboard", quickLinks], stats) : undefined}>
      {() => <DashboardBody stats={stats} quickLinks={quickLinks} />}
    </CachedElement>
  );
}

function DashboardBody({ stats, quickLinks }: Route.ComponentProps["loaderData"]) {
  return (
    <>
      {stats ? (
        <>
          <section aria-labelledby="dashboard-overview" className="space-y-3">
            <h2 id="dashboard-overview" className="sr-only">
              Resumo
            </h2>
            <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
              <StatCard
                title="Total Pacientes"
                value={formatCount(stats.patients.total)}
                icon={Users}
                description={monthNote(`${plural(stats.patients.trend.thisMonth, "cadastrado", "cadastrados")} este mês`, stats.patients.trend)}
                trend={trendOf(stats.patients.trend)}
              />
              <StatCard
                title="Consultas"
                value={formatCount(stats.appointments.total)}
                icon={Calendar}
                description={monthNote(`${plural(stats.appointments.trend.thisMonth, "consulta", "consultas")} este mês`, stats.appointments.trend)}
                trend={trendOf(stats.appointments.trend)}
              />
              <StatCard
                title="Cirurgias"
                value={formatCount(stats.surgeries.total)}
                icon={Activity}
                description={monthNote(`${plural(stats.surgeries.trend.thisMonth, "agendada", "agendadas")} para este mês`, stats.surgeries.trend)}
                trend={trendOf(stats.surgeries.trend)}
              />
              {stats.revenue ? (
                <StatCard
                  title="Receita Mensal"
                  value={formatBRL(stats.revenue.monthCents)}
                  icon={Wallet}
                  description={monthNote(`Receitas de ${formatInClinic(stats.monthStart, "MMMM 'de' yyyy")}`, stats.revenue.trend)}
                  trend={trendOf(stats.revenue.trend)}
                />
              ) : null}
            </div>
          </section>

          <section aria-labelledby="dashboard-indicators" className="space-y-3">
            <h2 id="dashboard-indicators" className="text-lg font-semibold">
              Indicadores
            </h2>
            <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
              <StatCard
                title="Taxa de Sucesso"
                value={percentText(stats.successRate)}
                icon={CircleCheck}
                description={
                  stats.successRate.percent === null
                    ? "Nenhuma cirurgia finalizada"
                    : `${formatCount(stats.successRate.part)} concluídas de ${plural(stats.successRate.whole, "finalizada", "finalizadas")}`
                }
              />
              <StatCard
                title="Tempo Médio de Espera"
                value={stats.averageWait.days === null ? NO_DATA : `${oneDecimal.format(stats.averageWait.days)} dias`}
                icon={Clock}
                description={
                  stats.averageWait.days === null
                    ? `Sem consultas nos últimos ${stats.averageWait.windowDays} dias`
                    : `Da marcação à consulta, últimos ${stats.averageWait.windowDays} dias (${plural(stats.averageWait.appointments, "consulta", "consultas")})`
                }
              />
              <StatCard
                title="Satisfação do Paciente"
                value={NO_DATA}
                icon={Star}
                description="Sem pesquisas de satisfação registradas"
              />
              <StatCard
                title="Taxa de Cobrança"
                value={percentText(stats.billingRate)}
                icon={Receipt}
                description={
                  stats.billingRate.percent === null
                    ? "Nenhuma cirurgia realizada"
                    : `${formatCount(stats.billingRate.part)} faturadas de ${plural(stats.billingRate.whole, "realizada", "realizadas")}`
                }
              />
            </div>
          </section>
        </>
      ) : (
        <Alert variant="warning">
          <AlertTitle>Estatísticas indisponíveis</AlertTitle>
          <AlertDescription>Não foi possível carregar os números do painel. Tente recarregar a página.</AlertDescription>
        </Alert>
      )}

      <div className="grid gap-4 lg:grid-cols-2">
        {stats ? <StageDistribution stages={stats.stageDistribution} /> : null}

        <section aria-labelledby="dashboard-quick-access" className="space-y-3">
          <h2 id="dashboard-quick-access" className="text-lg font-semibold">
            Acesso rápido
          </h2>
          <ul className="grid gap-3 sm:grid-cols-2">
            {quickLinks.map((link) => {
              const Icon = QUICK_LINKS.find((q) => q.to === link.to)?.icon ?? ArrowRight;
              return (
                <li key={link.to}>
                  <Link
                    to={link.to}
                    className="group flex h-full items-start gap-3 rounded-xl border bg-card p-4 text-card-foreground shadow-sm transition-colors hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                  >
                    <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
                      <Icon aria-hidden="true" className="size-5" />
                    </span>
                    <span className="grid gap-0.5">
                      <span className="font-medium">{link.title}</span>
                      <span className="text-sm text-muted-foreground">{link.description}</span>
                    </span>
                    <ArrowRight aria-hidden="true" className="ml-auto size-4 self-center text-muted-foreground transition-transform group-hover:translate-x-0.5" />
                  </Link>
                </li>
              );
            })}
          </ul>
        </section>
      </div>
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
