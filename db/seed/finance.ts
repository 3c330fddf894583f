import * as schema from "../schema";
import type { Accounts } from "./accounts";
import type { Agenda, AppointmentRow } from "./appointments";
import { insertRows, minDate, type SeedContext } from "./context";
import type { PatientPool } from "./patients";
import type { SurgeryBook } from "./surgeries";
import { addDays, at, formatBrDate, isoDay, MINUTE } from "./time";

/**
 * The last four months of the cash book: fixed costs, insurance payouts, private consultations
 * actually held in the agenda, and the fees of the paid surgeries.
 */
export function seedFinance(
  { tx, random, nowMs, today }: SeedContext,
  { adminId }: Accounts,
  { patients }: PatientPool,
  { drafts }: Agenda,
  appointmentRows: AppointmentRow[],
  { performed, feePlans, paidAtBySurgery, surgeryId }: SurgeryBook,
) {
  const transactions: Array<typeof schema.financialTransactions.$inferInsert> = [];
  const addTransaction = (
    type: "receita" | "despesa",
    category: string,
    description: string,
    amountCents: number,
    date: string,
    surgery: number | null = null,
  ) => {
    if (date > today || amountCents <= 0) return;
    const createdAt = minDate(at(date, 10 * 60 + random.int(0, 480)).getTime(), nowMs - MINUTE);
    transactions.push({ type, category, description, amountCents, transactionDate: date, surgeryId: surgery, createdBy: adminId, createdAt, updatedAt: createdAt });
  };
  const fromDay = addDays(today, -120);
  const months = new Set<string>();
  for (let d = fromDay; d <= today; d = addDays(d, 1)) months.add(d.slice(0, 7));
  const monthName = (ym: string) =>
    new Intl.DateTimeFormat("pt-BR", { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(`${ym}-15T12:00:00Z`));
  for (const ym of months) {
    const dayOf = (n: number) => `${ym}-${String(n).padStart(2, "0")}`;
    const inRange = (date: string) => date >= fromDay && date <= today;
    const monthly: Array<[string, string, number, number]> = [
      ["Aluguel", `Aluguel do consultório – ${monthName(ym)}`, 1_250_000, 5],
      ["Folha de pagamento", `Salários e encargos – ${monthName(ym)}`, 2_640_000 + random.int(-80_000, 80_000), 5],
      ["Software e sistemas", "Licenças de software (prontuário, PACS, telefonia)", 89_000, 10],
      ["Serviços", "Honorários da contabilidade", 250_000, 15],
      ["Serviços", "Energia elétrica", 78_000 + random.int(0, 35_000), 18],
      ["Serviços", "Internet e telefonia", 32_990, 18],
      ["Impostos", "ISS e tributos federais (Simples Nacional)", 780_000 + random.int(0, 220_000), 20],
    ];
    for (const [category, description, amount, day] of monthly) if (inRange(dayOf(day))) addTransaction("despesa", category, description, amount, dayOf(day));
    if (random.chance(0.6) && inRange(dayOf(12))) addTransaction("despesa", "Marketing", "Campanha de divulgação em redes sociais", 150_000, dayOf(12));
    for (let i = 0; i < 3; i++) {
      const date = dayOf(random.int(1, 28));
      if (inRange(date))
        addTransaction("despesa", "Materiais", random.pick(["Materiais descartáveis do consultório", "Material de escritório", "Kit de infiltração e agulhas espinhais"]), random.int(25_000, 240_000), date);
    }
    // Insurance payouts for consultations come once a month, per payer.
    for (const payer of ["Unimed", "Bradesco Saúde", "SulAmérica", "Amil", "Porto Seguro Saúde"]) {
      const date = dayOf(random.int(8, 18));
      if (inRange(date)) addTransaction("receita", "Consultas", `Repasse ${payer} – consultas do mês anterior`, random.int(35, 80) * (payer === "Amil" ? 12_000 : 15_500), date);
    }
    // Surgical fees of the whole team paid through the hospitals (beyond the surgeries tracked one by one).
    for (const hospital of ["Hospital Santa Aurora", "Hospital São Lucas da Paulista"]) {
      const date = dayOf(random.int(10, 25));
      if (inRange(date)) addTransaction("receita", "Honorários médicos", `Repasse de honorários cirúrgicos – ${hospital}`, random.int(2_200_000, 4_800_000), date);
    }
  }
  // Private consultations actually held in the agenda, one entry per day.
  const privateByDay = new Map<string, { count: number; total: number }>();
  appointmentRows.forEach((a, i) => {
    const patient = patients[drafts[i].patientIndex];
    if (a.status !== "completed" || (patient.insurance && patient.insurance !== "Particular")) return;
    const day = isoDay(a.startTime);
    const entry = privateByDay.get(day) ?? { count: 0, total: 0 };
    entry.count += 1;
    entry.total += a.type === "Teleconsulta" ? 35_000 : a.type === "Infiltração" ? 180_000 : 65_000;
    privateByDay.set(day, entry);
  });
  for (const [day, { count, total }] of [...privateByDay].sort()) {
    addTransaction("receita", "Consultas", `Consultas particulares (${count})`, total, day);
  }
  // Before the agenda window, weekly totals stand in for the private consultations.
  for (let d = addDays(today, -120); d < addDays(today, -42); d = addDays(d, 7)) {
    const count = random.int(4, 11);
    addTransaction("receita", "Consultas", `Consultas particulares – semana de ${formatBrDate(at(d, 12 * 60))} (${count})`, count * 65_000, d);
  }
  for (const [s, paidAt] of paidAtBySurgery) {
    const plan = feePlans.get(s)!;
    addTransaction(
      "receita",
      "Cirurgias",
      `Honorários – ${s.type.name} (${patients[s.patientIndex].name}) – ${s.payer}`,
      plan.total,
      isoDay(paidAt),
      surgeryId.get(s)!,
    );
  }
  for (const s of performed.filter((p) => p.type.opme && p.payer === "Particular")) {
    addTransaction("despesa", "OPME", `OPME – ${s.type.name} (${patients[s.patientIndex].name})`, random.int(800_000, 2_400_000), isoDay(s.start));
  }
  transactions.sort((a, b) => (a.transactionDate < b.transactionDate ? -1 : a.transactionDate > b.transactionDate ? 1 : 0));
  insertRows(tx, schema.financialTransactions, transactions);
}
