import type { OrderStatus } from "../../app/lib/enums";
import type { PipelineStage } from "../../app/lib/pipeline";
import { buildSearchText } from "../../app/lib/search";
import * as schema from "../schema";
import type { Accounts } from "./accounts";
import { SOPS } from "./catalog";
import { insertRows, minDate, type SeedContext } from "./context";
import type { MasterData } from "./master-data";
import type { PatientPool } from "./patients";
import type { SurgeryBook } from "./surgeries";
import { DAY, MINUTE } from "./time";

/** The practice's standard operating procedures (POPs). */
export function seedSops({ tx, nowMs }: SeedContext, { adminId }: Accounts) {
  const rows = SOPS.map((s, i) => {
    const createdAt = new Date(nowMs - (400 - i * 45) * DAY);
    return {
      title: s.title,
      category: s.category,
      contentMd: s.contentMd,
      status: s.status,
      version: s.version,
      createdBy: adminId,
      searchText: buildSearchText(s.title, s.category),
      createdAt,
      updatedAt: new Date(createdAt.getTime() + (s.version - 1) * 30 * DAY),
    };
  });
  const ids = insertRows(tx, schema.sops, rows);
  // Every version is kept: the earlier ones differ by their revision note, the last is the SOP as it stands.
  const versions = rows.flatMap((sop, i) =>
    Array.from({ length: sop.version }, (_, v) => {
      const version = v + 1;
      const last = version === sop.version;
      return {
        sopId: ids[i],
        version,
        title: sop.title,
        category: sop.category,
        contentMd: last ? sop.contentMd : `${sop.contentMd}\n\n_Revisão ${version}: texto anterior à revisão seguinte._`,
        status: last ? sop.status : ("active" as const),
        editedBy: adminId,
        createdAt: new Date(sop.createdAt.getTime() + v * 30 * DAY),
      };
    }),
  );
  insertRows(tx, schema.sopVersions, versions);
}

/** The implants each OPME surgery type needs, by TUSS code. */
const OPME_ITEMS: Record<string, Array<{ description: string; quantity: number; unitCents: number }>> = {
  "30715016": [
    { description: "Parafuso pedicular poliaxial 6,5 x 45 mm", quantity: 4, unitCents: 180_000 },
    { description: "Haste de titânio 5,5 x 80 mm", quantity: 2, unitCents: 95_000 },
    { description: "Cage intersomático PEEK TLIF 10 mm", quantity: 1, unitCents: 420_000 },
  ],
  "30715393": [
    { description: "Placa cervical anterior 1 nível", quantity: 1, unitCents: 380_000 },
    { description: "Cage cervical PEEK 6 mm", quantity: 1, unitCents: 310_000 },
  ],
  "30715563": [
    { description: "Kit de cifoplastia com balão", quantity: 1, unitCents: 860_000 },
    { description: "Cimento ósseo PMMA de alta viscosidade", quantity: 1, unitCents: 120_000 },
  ],
  "30715598": [{ description: "Prótese de disco cervical", quantity: 1, unitCents: 1_900_000 }],
  "31401171": [{ description: "Clipe de aneurisma em titânio", quantity: 2, unitCents: 280_000 }],
  "31401236": [{ description: "Válvula de DVP de pressão programável", quantity: 1, unitCents: 1_250_000 }],
};

const orderStatusByStage: Partial<Record<PipelineStage, OrderStatus>> = {
  opme_cotacao: "pending",
  aprovado: "approved",
  agendado: "ordered",
  em_cirurgia: "delivered",
  concluido: "delivered",
  cancelado: "cancelled",
};

/** Orders: OPME for surgeries in progress plus clinic purchases. */
export function seedOrders(
  { tx, random, nowMs }: SeedContext,
  { officeUsers }: Accounts,
  { patients, patientIds }: PatientPool,
  { supplierByName }: MasterData,
  { surgeryDrafts, surgicalPatients, surgeryId }: SurgeryBook,
) {
  const orderRows: Array<typeof schema.orders.$inferInsert> = [];
  const addOrder = (
    orderType: string,
    status: OrderStatus,
    supplierName: string | null,
    items: Array<{ description: string; quantity: number; unitCents: number }>,
    createdAtMs: number,
    patientIndex: number | null,
    extra: { notes?: string; surgeryId?: number } = {},
  ) => {
    const supplier = supplierName ? supplierByName.get(supplierName)! : null;
    const createdAt = minDate(createdAtMs, nowMs - MINUTE);
    const patientName = patientIndex === null ? null : patients[patientIndex].name;
    orderRows.push({
      patientId: patientIndex === null ? null : patientIds[patientIndex],
      orderType,
      status,
      supplierId: supplier?.id ?? null,
      totalCents: items.reduce((sum, item) => sum + item.quantity * item.unitCents, 0),
      detailsJson: { items, notes: extra.notes ?? null, surgeryId: extra.surgeryId ?? null },
      createdBy: random.pick(officeUsers),
      searchText: buildSearchText(orderType, patientName, supplier?.name, ...items.map((item) => item.description)),
      createdAt,
      updatedAt: createdAt,
    });
  };
  for (const s of surgeryDrafts) {
    const items = OPME_ITEMS[s.type.tuss];
    const status = orderStatusByStage[s.stage];
    if (!items || !status || !s.path.includes("opme_cotacao")) continue;
    if (s.stage === "concluido" && s.start < nowMs - 60 * DAY) continue;
    const supplier = s.type.area === "cranio" ? "NeuroMed Materiais Neurocirúrgicos" : s.type.tuss === "30715563" ? "Vértebra Distribuidora de OPME" : "NeoSpine Implantes Ortopédicos Ltda";
    const quoteAt = s.moves[s.path.indexOf("opme_cotacao")];
    addOrder("OPME", status, supplier, items, quoteAt, s.patientIndex, { surgeryId: surgeryId.get(s)!, notes: `${s.type.name} – ${s.hospital.name}` });
  }
  addOrder("Medicamentos", "delivered", "FarmaHosp Distribuidora de Medicamentos", [
    { description: "Dexametasona 4 mg/ml – ampola", quantity: 50, unitCents: 390 },
    { description: "Lidocaína 2% sem vasoconstritor 20 ml", quantity: 30, unitCents: 650 },
    { description: "Triancinolona hexacetonida 20 mg/ml", quantity: 10, unitCents: 6_900 },
  ], nowMs - 40 * DAY, null, { notes: "Reposição para infiltrações." });
  addOrder("Material de consultório", "delivered", "Cirúrgica Paulista Suprimentos", [
    { description: "Luvas de procedimento M (caixa com 100)", quantity: 20, unitCents: 3_290 },
    { description: "Papel lençol 70 cm x 50 m", quantity: 12, unitCents: 2_150 },
    { description: "Agulha espinhal 22G x 3,5\"", quantity: 40, unitCents: 1_480 },
  ], nowMs - 25 * DAY, null);
  addOrder("Material de consultório", "ordered", "Cirúrgica Paulista Suprimentos", [
    { description: "Seringa descartável 10 ml (caixa com 100)", quantity: 3, unitCents: 8_900 },
    { description: "Álcool 70% 1 litro", quantity: 12, unitCents: 1_290 },
  ], nowMs - 3 * DAY, null);
  addOrder("Locação de equipamento", "approved", "Imagem Cirúrgica Equipamentos Médicos", [
    { description: "Locação de neuronavegador – diária", quantity: 1, unitCents: 450_000 },
  ], nowMs - 6 * DAY, null, { notes: "Para cirurgia de tumor intracraniano agendada." });
  addOrder("Equipamento", "pending", "Imagem Cirúrgica Equipamentos Médicos", [
    { description: "Manutenção preventiva do aparelho de eletroneuromiografia", quantity: 1, unitCents: 180_000 },
  ], nowMs - 1 * DAY, null);
  addOrder("Esterilização", "cancelled", "LavClean Esterilização", [
    { description: "Esterilização de caixas de instrumental (mensal)", quantity: 1, unitCents: 180_000 },
  ], nowMs - 50 * DAY, null, { notes: "Contrato suspenso." });
  addOrder("Exame de imagem", "approved", null, [
    { description: "Ressonância magnética de coluna lombar com contraste", quantity: 1, unitCents: 95_000 },
  ], nowMs - 2 * DAY, surgicalPatients[surgicalPatients.length - 1], { notes: "Paciente particular; laboratório a definir." });
  orderRows.sort((a, b) => a.createdAt!.getTime() - b.createdAt!.getTime());
  const orderIds = insertRows(tx, schema.orders, orderRows);
  // The status history: created as pending, then straight to where the order stands.
  const changes = orderRows.flatMap((order, i) => {
    const created = { orderId: orderIds[i], fromStatus: null, toStatus: "pending" as const, changedBy: order.createdBy, changedAt: order.createdAt! };
    if (order.status === "pending") return [created];
    const moved = { orderId: orderIds[i], fromStatus: "pending" as const, toStatus: order.status!, changedBy: order.createdBy, changedAt: new Date(Math.min(order.createdAt!.getTime() + DAY, nowMs)) };
    return [created, moved];
  });
  insertRows(tx, schema.orderStatusChanges, changes);
}
