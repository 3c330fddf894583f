import { normalizeSearch } from "./search";

/**
 * The neurosurgery catalogue (SPEC §2 /cirurgico/grupos/neurocirurgia): 12 procedure groups in two
 * areas. Codes and official titles are CBHPM 2022 (DOMAIN.md §1). Prices:
 * - 2017 reference prices of SPEC for laminectomy (R$ 1.141,07) and intracranial tumour
 *   microsurgery (R$ 3.809,81);
 * - the others are the value of the procedure's porte in the CBHPM "Original" column in force from
 *   Oct/2025 (AMB Comunicado of 18/10/2025, DOMAIN.md §1), year 2025. A porte whose value DOMAIN.md
 *   does not list has no price (null) rather than a guessed one.
 * Static, browser-safe data: no table, nothing to page.
 */

export const NEURO_AREAS = ["Coluna", "Crânio"] as const;
export type NeuroArea = (typeof NEURO_AREAS)[number];

export interface NeuroProcedure {
  code: string;
  title: string;
  /** Reais (the catalogue's own unit, SPEC §2 priceBRL); null when no sourced value exists. */
  priceBRL: number | null;
  year: number | null;
}

export interface NeuroGroup {
  id: string;
  groupTitle: string;
  area: NeuroArea;
  principal: NeuroProcedure;
  /** Codes usually billed with the principal in the same session (CBHPM item 4). */
  sequentialCodes: string[];
  recommendedOpmes: string[];
  notes: string;
}

export const NEURO_GROUPS: readonly NeuroGroup[] = [
  {
    id: "coluna-hernia-lombar",
    groupTitle: "Hérnia de disco lombar",
    area: "Coluna",
    principal: { code: "3.07.15.18-0", title: "Hérnia de disco tóraco-lombar – tratamento cirúrgico", priceBRL: 1854.75, year: 2025 },
    sequentialCodes: ["3.07.15.19-9"],
    recommendedOpmes: ["Hemostático absorvível", "Selante de dura-máter"],
    notes: "Microdiscectomia lombar; porte 10A, 1 auxiliar, AN6.",
  },
  {
    id: "coluna-hernia-cervical",
    groupTitle: "Hérnia de disco cervical",
    area: "Coluna",
    principal: { code: "3.07.15.39-3", title: "Hérnia de disco cervical – tratamento cirúrgico", priceBRL: 3164.15, year: 2025 },
    sequentialCodes: ["3.07.15.02-4", "3.07.15.01-6"],
    recommendedOpmes: ["Cage cervical intersomático", "Placa cervical anterior com parafusos"],
    notes: "Discectomia cervical anterior com artrodese (ACDF); porte 12B, 2 auxiliares, AN8.",
  },
  {
    id: "coluna-laminectomia",
    groupTitle: "Laminectomia",
    area: "Coluna",
    principal: { code: "3.07.15.19-9", title: "Laminectomia ou laminotomia", priceBRL: 1141.07, year: 2017 },
    sequentialCodes: ["3.07.15.09-1"],
    recommendedOpmes: ["Hemostático absorvível"],
    notes: "Preço de referência de 2017; porte 9C, 2 auxiliares, AN5.",
  },
  {
    id: "coluna-canal-estreito",
    groupTitle: "Canal vertebral estreito",
    area: "Coluna",
    principal: { code: "3.07.15.36-9", title: "Tratamento microcirúrgico do canal vertebral estreito por segmento", priceBRL: 2009.91, year: 2025 },
    sequentialCodes: ["3.07.15.19-9", "3.07.15.01-6"],
    recommendedOpmes: ["Parafusos pediculares", "Hastes de titânio"],
    notes: "Cobrado por segmento (duas vértebras e o disco entre elas, obs. 3.07.15.99-7); porte 10B.",
  },
  {
    id: "coluna-artrodese-instrumentada",
    groupTitle: "Artrodese instrumentada",
    area: "Coluna",
    principal: { code: "3.07.15.01-6", title: "Artrodese da coluna com instrumentação por segmento", priceBRL: 3876.43, year: 2025 },
    sequentialCodes: ["3.07.15.09-1", "3.07.15.36-9"],
    recommendedOpmes: ["Parafusos pediculares", "Hastes de titânio", "Cage intersomático lombar", "Enxerto ósseo sintético"],
    notes: "Multiplicado pelo número de segmentos; porte 12C, 2 auxiliares, AN8.",
  },
  {
    id: "coluna-artrodese-anterior",
    groupTitle: "Artrodese via anterior ou póstero-lateral",
    area: "Coluna",
    principal: { code: "3.07.15.02-4", title: "Artrodese de coluna via anterior ou póstero lateral – tratamento cirúrgico", priceBRL: 3876.43, year: 2025 },
    sequentialCodes: ["3.07.15.01-6"],
    recommendedOpmes: ["Cage intersomático", "Enxerto ósseo sintético"],
    notes: "Abordagem combinada 360° a 50% (manual SBC/SBN 2025); porte 12C.",
  },
  {
    id: "coluna-endoscopica",
    groupTitle: "Cirurgia endoscópica da coluna",
    area: "Coluna",
    principal: { code: "3.07.15.05-9", title: "Cirurgia de coluna por via endoscópica", priceBRL: null, year: null },
    sequentialCodes: ["3.07.15.58-0"],
    recommendedOpmes: ["Kit de endoscopia de coluna", "Ponteira de radiofrequência"],
    notes: "Porte 11A, 2 auxiliares, AN7; valor do porte a confirmar na tabela vigente.",
  },
  {
    id: "cranio-tumor",
    groupTitle: "Tumores intracranianos",
    area: "Crânio",
    principal: { code: "3.14.01.15-5", title: "Microcirurgia para tumores intracranianos", priceBRL: 3809.81, year: 2017 },
    sequentialCodes: ["3.02.15.02-1"],
    recommendedOpmes: ["Selante de dura-máter", "Placas e parafusos de fixação craniana", "Hemostático absorvível"],
    notes: "Preço de referência de 2017; porte 14A, 2 auxiliares, AN7.",
  },
  {
    id: "cranio-transesfenoidal",
    groupTitle: "Cirurgia transesfenoidal",
    area: "Crânio",
    principal: { code: "3.14.01.16-3", title: "Microcirurgia por via transesfenoidal", priceBRL: null, year: null },
    sequentialCodes: [],
    recommendedOpmes: ["Selante de dura-máter", "Enxerto de fáscia"],
    notes: "Tumores de hipófise; porte 14B, 2 auxiliares, AN8; valor do porte a confirmar na tabela vigente.",
  },
  {
    id: "cranio-vascular",
    groupTitle: "Microcirurgia vascular",
    area: "Crânio",
    principal: { code: "3.14.01.17-1", title: "Microcirurgia vascular intracraniana", priceBRL: 5768.81, year: 2025 },
    sequentialCodes: ["3.02.15.02-1"],
    recommendedOpmes: ["Clipes de aneurisma", "Placas e parafusos de fixação craniana"],
    notes: "Aneurismas e malformações; porte 14A, 2 auxiliares, AN7.",
  },
  {
    id: "cranio-hematoma",
    groupTitle: "Hematoma intracraniano",
    area: "Crânio",
    principal: { code: "3.14.01.30-9", title: "Tratamento cirúrgico do hematoma intracraniano", priceBRL: null, year: null },
    sequentialCodes: ["3.02.15.02-1"],
    recommendedOpmes: ["Placas e parafusos de fixação craniana", "Dreno subdural"],
    notes: "Frequentemente de urgência (+30%, CBHPM item 2.1); porte 11C, AN5; valor do porte a confirmar na tabela vigente.",
  },
  {
    id: "cranio-derivacao",
    groupTitle: "Derivação ventricular",
    area: "Crânio",
    principal: { code: "3.14.01.23-6", title: "Sistema de derivação ventricular interna com válvulas ou revisões", priceBRL: 2009.91, year: 2025 },
    sequentialCodes: [],
    recommendedOpmes: ["Válvula de derivação ventrículo-peritoneal", "Cateter ventricular"],
    notes: "Hidrocefalia; porte 10B, 2 auxiliares, AN6.",
  },
];

/** The catalogue's search key per group: title, area, code (with and without dots), OPMEs, notes. */
function groupKey(group: NeuroGroup): string {
  const codes = [group.principal.code, ...group.sequentialCodes];
  return normalizeSearch(
    [group.id, group.groupTitle, group.area, group.principal.title, ...codes, ...codes.map((c) => c.replace(/\D/g, "")), ...group.recommendedOpmes, group.notes].join(" | "),
  );
}

/** Reads `?area=` (the label or its folded form: 'Crânio', 'cranio'); anything else is no filter. */
export function parseNeuroArea(raw: string | null): NeuroArea | null {
  if (!raw) return null;
  const folded = normalizeSearch(raw);
  return NEURO_AREAS.find((area) => normalizeSearch(area) === folded) ?? null;
}

/** The groups matching the search (every word, accent-insensitive; codes with or without dots) and the area. */
export function filterNeuroGroups(q: string, area: NeuroArea | null, groups: readonly NeuroGroup[] = NEURO_GROUPS): NeuroGroup[] {
  const words = normalizeSearch(q.slice(0, 200)).split(" ").filter(Boolean);
  return groups.filter((group) => {
    if (area && group.area !== area) return false;
    const key = groupKey(group);
    const bare = key.replace(/[.-]/g, "");
    return words.every((word) => key.includes(word) || bare.includes(word.replace(/[.-]/g, "")));
  });
}

/** Stat cards: groups, groups per area, and the average principal price over the groups that have one. */
export function neuroStats(groups: readonly NeuroGroup[]) {
  const priced = groups.map((g) => g.principal.priceBRL).filter((p): p is number => p !== null);
  const perArea = Object.fromEntries(NEURO_AREAS.map((area) => [area, groups.filter((g) => g.area === area).length])) as Record<NeuroArea, number>;
  const averagePriceBRL = priced.length ? Math.round((priced.reduce((a, b) => a + b, 0) / priced.length) * 100) / 100 : null;
  return { groups: groups.length, perArea, averagePriceBRL, pricedGroups: priced.length };
}

/** The CSV report's columns (Excel-BR via ~/lib/csv: prices as numbers with a decimal comma). */
export const NEURO_CSV_HEADERS = [
  "ID",
  "Grupo",
  "Área",
  "Código principal",
  "Procedimento principal",
  "Preço (R$)",
  "Ano",
  "Códigos sequenciais",
  "OPMEs recomendadas",
  "Observações",
];

export function neuroCsvRows(groups: readonly NeuroGroup[]) {
  return groups.map((g) => [
    g.id,
    g.groupTitle,
    g.area,
    g.principal.code,
    g.principal.title,
    g.principal.priceBRL,
    g.principal.year,
    g.sequentialCodes.join(", "),
    g.recommendedOpmes.join(", "),
    g.notes,
  ]);
}
