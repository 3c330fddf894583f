import { AlertTriangle, CheckCircle2, Clock, ListTodo } from "~/components/icons";
import { StatCard } from "~/components/stat-card";
import type { listTasks } from "~/models/task.server";

/** The five counts over the tasks the search and filters find. */
export function TaskStats({ stats }: { stats: ReturnType<typeof listTasks>["stats"] }) {
  return (
    <section aria-label="Resumo das tarefas" className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-5">
      <StatCard title="Total" value={stats.total.toLocaleString("pt-BR")} icon={ListTodo} />
      <StatCard
        title="Concluídas"
        value={stats.completed.toLocaleString("pt-BR")}
        icon={CheckCircle2}
        description={`${stats.completedPercent}% do total`}
      />
      <StatCard title="Em Andamento" value={stats.inProgress.toLocaleString("pt-BR")} icon={Clock} />
      <StatCard title="Atrasadas" value={stats.overdue.toLocaleString("pt-BR")} icon={AlertTriangle} />
      <StatCard title="Pendentes" value={stats.pending.toLocaleString("pt-BR")} icon={ListTodo} />
    </section>
  );
}
