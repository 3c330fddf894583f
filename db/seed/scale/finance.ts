import type { TransactionType } from "../../../app/lib/enums";
import { SURGERY_TYPES } from "../catalog";
import { MINUTE } from "../time";
import { type DailyWriterEnv, Quota } from "./batch";
import { isoOfDay, weekdayOfDay } from "./calendar";
import { ramp, type ScaleDoctor, worksOn } from "./doctors";
import { WeightedTable } from "./names";
import { INSURANCES } from "./patients";
import { priceIndex, type SurgeryMoney } from "./surgeries";

interface Entry {
  type: TransactionType;
  category: string;
  /** Description; `{doctor}` and `{payer}` are filled in. */
  descriptions: readonly string[];
  /** Range in cents, in today's money. */
  min: number;
  max: number;
}

/** The day-to-day cash book beyond the surgeries tracked one by one, with how common each entry is. */
const DAILY = new WeightedTable<Entry>([
  [{ type: "receita", category: "Consultas", descriptions: ["Consulta particular – {doctor}", "Retorno particular – {doctor}"], min: 35_000, max: 95_000 }, 34],
  [{ type: "receita", category: "Procedimentos ambulatoriais", descriptions: ["Infiltração facetária – {doctor}", "Bloqueio radicular – {doctor}"], min: 120_000, max: 380_000 }, 8],
  [{ type: "receita", category: "Honorários médicos", descriptions: ["Repasse {payer} – consultas", "Repasse {payer} – procedimentos ambulatoriais"], min: 400_000, max: 4_500_000 }, 6],
  [{ type: "receita", category: "Outras receitas", descriptions: ["Relatório médico para perícia", "Segunda via de laudo", "Parecer para junta médica"], min: 15_000, max: 90_000 }, 3],
  [{ type: "despesa", category: "Materiais", descriptions: ["Materiais descartáveis do consultório", "Material de escritório", "Kit de infiltração e agulhas espinhais"], min: 5_000, max: 240_000 }, 14],
  [{ type: "despesa", category: "Serviços", descriptions: ["Manutenção de equipamentos", "Limpeza e conservação", "Motoboy – entrega de guias", "Lavanderia"], min: 20_000, max: 600_000 }, 9],
  [{ type: "despesa", category: "Marketing", descriptions: ["Anúncio em redes sociais", "Material gráfico", "Patrocínio de evento científico"], min: 30_000, max: 500_000 }, 3],
  [{ type: "despesa", category: "Software e sistemas", descriptions: ["Licença adicional de software", "Armazenamento de imagens (PACS)"], min: 10_000, max: 150_000 }, 2],
  [{ type: "despesa", category: "Impostos", descriptions: ["Taxa municipal", "Guia de recolhimento complementar"], min: 10_000, max: 400_000 }, 3],
  [{ type: "despesa", category: "Outras despesas", descriptions: ["Taxas bancárias", "Cartório", "Copa e cozinha", "Estacionamento"], min: 2_000, max: 80_000 }, 4],
]);

/** Fixed monthly costs: [category, description, cents in today's money, day of month]. */
const MONTHLY: Array<[string, string, number, number]> = [
  ["Aluguel", "Aluguel – Consultório Paulista", 1_850_000, 5],
  ["Aluguel", "Aluguel – Consultório Moema", 1_450_000, 5],
  ["Aluguel", "Aluguel – Consultório Vila Mariana", 980_000, 5],
  ["Folha de pagamento", "Salários e encargos da equipe", 14_500_000, 5],
  ["Software e sistemas", "Licenças de software (prontuário, PACS, telefonia)", 290_000, 10],
  ["Serviços", "Honorários da contabilidade", 650_000, 15],
  ["Serviços", "Energia elétrica", 310_000, 18],
  ["Serviços", "Internet e telefonia", 89_000, 18],
  ["Impostos", "ISS e tributos federais", 6_800_000, 20],
];

export interface FinanceEnv extends DailyWriterEnv {
  clinicDoctors: ScaleDoctor[];
  money: SurgeryMoney;
}

/**
 * The cash book, one day at a time up to today: the money of the surgeries (fee receipts on the
 * day they were paid, linked to the surgery; OPME bought for private patients), the fixed
 * monthly costs, and day-to-day entries that follow the size of the practice. Exactly `total` rows.
 */
export function writeTransactions(env: FinanceEnv): number {
  const { conn, batch, random, calendar, firstDay, today, nowMs, adminId, clinicDoctors, money } = env;
  const insert = conn.prepare(
    `INSERT INTO financial_transactions (type, amount_cents, category, description, transaction_date, surgery_id, created_by, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );

  // The surgeries' money in day order, capped at the total.
  const linked: number[] = [];
  for (let i = 0; i < money.count; i++) if (money.day[i] <= today) linked.push(i);
  linked.sort((a, b) => money.day[a] - money.day[b] || a - b);
  const linkedCount = Math.min(linked.length, env.total);
  linked.length = linkedCount;

  let months = 0;
  for (let d = firstDay; d <= today; d++) if (isoOfDay(d).endsWith("-01")) months++;
  // Small builds (tests) have too few rows for 20 years of rent: then everything is day-to-day.
  const withMonthly = env.total - linkedCount >= 4 * months * MONTHLY.length;
  const monthlyCount = withMonthly ? countMonthly(firstDay, today) : 0;
  const daily = env.total - linkedCount - monthlyCount;

  const size = (d: number) => {
    let s = 0;
    for (const doctor of clinicDoctors) if (worksOn(doctor, d)) s += doctor.occupancy * ramp(doctor, d);
    const wd = weekdayOfDay(d);
    return s * (wd === 0 ? 0.03 : wd === 6 ? 0.25 : 1);
  };
  let weightSum = 0;
  for (let d = firstDay; d <= today; d++) weightSum += size(d);
  const quota = new Quota(daily, weightSum);

  let written = 0;
  let next = 0;
  const write = (d: number, iso: string, type: TransactionType, cents: number, category: string, description: string, surgeryId: number | null) => {
    const at = Math.min(calendar.instant(d, random.int(8 * 60, 19 * 60)), nowMs - MINUTE);
    insert.run(type, Math.max(1, Math.round(cents)), category, description, iso, surgeryId, adminId, at, at);
    written++;
    batch.written();
  };

  for (let d = firstDay; d <= today; d++) {
    const iso = isoOfDay(d);
    const index = priceIndex(d, today);
    for (; next < linkedCount && money.day[linked[next]] === d; next++) {
      const i = linked[next];
      const typeName = SURGERY_TYPES[money.typeIndex[i]].name;
      const payer = INSURANCES[money.payerIndex[i]] ?? "Particular";
      if (money.kind[i] === 0) write(d, iso, "receita", money.amount[i], "Cirurgias", `Honorários – ${typeName} – ${payer}`, money.surgeryId[i]);
      else write(d, iso, "despesa", money.amount[i], "OPME", `OPME – ${typeName} (particular)`, money.surgeryId[i]);
    }
    if (withMonthly) {
      const dayOfMonth = Number(iso.slice(8, 10));
      for (const [category, description, cents, on] of MONTHLY) {
        if (on === dayOfMonth) write(d, iso, "despesa", cents * index * (0.95 + random.next() * 0.1), category, description, null);
      }
    }
    const n = quota.next(size(d));
    for (let k = 0; k < n; k++) {
      const entry = DAILY.at(random.next());
      let description = random.pick(entry.descriptions);
      if (description.includes("{doctor}")) {
        let doctor = clinicDoctors[Math.floor(random.next() * clinicDoctors.length)];
        for (let attempt = 0; attempt < 20 && !worksOn(doctor, d); attempt++) doctor = clinicDoctors[Math.floor(random.next() * clinicDoctors.length)];
        description = description.replace("{doctor}", doctor.name);
      }
      if (description.includes("{payer}")) description = description.replace("{payer}", random.pick(["Unimed", "Bradesco Saúde", "SulAmérica", "Amil", "Porto Seguro Saúde"]));
      write(d, iso, entry.type, random.int(entry.min, entry.max) * index, entry.category, description, null);
    }
  }
  if (written !== env.total) throw new Error(`Lançamentos: ${written} escritos, ${env.total} pedidos`);
  return written;
}

function countMonthly(firstDay: number, today: number): number {
  let n = 0;
  for (let d = firstDay; d <= today; d++) {
    const dayOfMonth = Number(isoOfDay(d).slice(8, 10));
    for (const [, , , on] of MONTHLY) if (on === dayOfMonth) n++;
  }
  return n;
}
