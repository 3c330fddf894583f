import { describe, expect, it } from "vitest";
import { DEFAULT_FEE_RULES, type FeeInput, type FeeProcedure, FeeEngineError, computeFeeLines, feeLineBasis } from "~/lib/fees/engine";
import { PORTES, porteRank } from "~/lib/fees/porte";
import { deriveUrgency } from "~/lib/fees/urgency";
import { formatBRL } from "~/lib/money";

/** CBHPM 'Original' column in force Oct/2025–Sep/2026 (DOMAIN.md §1), in cents. */
const ORIGINAL: Record<string, number> = {
  "3A": 22_807,
  "3C": 33_381,
  "4C": 49_133,
  "6B": 72_640,
  "7C": 112_365,
  "9B": 156_797,
  "9C": 172_781,
  "10A": 185_475,
  "10B": 200_991,
  "10C": 223_089,
  "12A": 294_318,
  "12B": 316_415,
  "12C": 387_643,
};

// DOMAIN.md §1 real codes: porte / nº auxiliares / porte anestésico.
const MICRODISCECTOMY: FeeProcedure = { codeId: 1, code: "3.07.15.18-0", porte: "10A", assistantsCount: 1, anestheticPorte: 6, route: "same", bilateral: false };
const ARTHRODESIS: FeeProcedure = { codeId: 2, code: "3.07.15.01-6", porte: "12C", assistantsCount: 2, anestheticPorte: 8, route: "same", bilateral: false };
const DECOMPRESSION: FeeProcedure = { codeId: 3, code: "3.07.15.09-1", porte: "9C", assistantsCount: 2, anestheticPorte: 5, route: "same", bilateral: false };

const SURGEON = 10;
const AUX1 = 11;
const AUX2 = 12;
const ANEST = 13;

function input(overrides: Partial<FeeInput>): FeeInput {
  return {
    procedures: [MICRODISCECTOMY],
    team: { surgeonId: SURGEON, assistantIds: [AUX1, null, null, null], anesthetistId: ANEST },
    rules: DEFAULT_FEE_RULES,
    porteValues: ORIGINAL,
    accommodation: "enfermaria",
    urgent: false,
    ...overrides,
  };
}

/** Total per professional and role, the way the screen sums a surgery. */
function totals(result: ReturnType<typeof computeFeeLines>) {
  const byKey: Record<string, number> = {};
  for (const line of result.lines) {
    const key = `${line.role}${line.position ?? ""}`;
    byKey[key] = (byKey[key] ?? 0) + line.amountCents;
  }
  return byKey;
}

describe("the CBHPM fee engine, worked examples (DOMAIN.md §1)", () => {
  const cases: Array<{ name: string; input: FeeInput; expected: Record<string, number> }> = [
    {
      name: "3.07.15.18-0 in a ward: surgeon 10A, 1 assistant at 60 %, anaesthetist AN6 = 9B",
      input: input({}),
      expected: { principal: 185_475, auxiliar1: 111_285, anestesista: 156_797 },
    },
    {
      name: "two procedures by the same route: 12C at 100 % + 9C at 50 %; anaesthesia AN8 at 100 % + AN5 at 50 %",
      input: input({ procedures: [DECOMPRESSION, ARTHRODESIS], team: { surgeonId: SURGEON, assistantIds: [AUX1, AUX2, null, null], anesthetistId: ANEST } }),
      // 387 643 + 86 390,5 → 86 391; assistants per act: 232 585,8 + 51 834,6 and 155 057,2 + 34 556,4
      expected: { principal: 474_034, auxiliar1: 284_421, auxiliar2: 189_613, anestesista: 294_318 + 56_183 },
    },
    {
      name: "a second procedure by a different route is paid at 70 %",
      input: input({ procedures: [ARTHRODESIS, { ...DECOMPRESSION, route: "different" }], team: { surgeonId: SURGEON, assistantIds: [null, null, null, null], anesthetistId: null } }),
      expected: { principal: 387_643 + 120_947 },
    },
    {
      name: "urgency (e.g. 20h): +30 % on every porte",
      input: input({ urgent: true }),
      // 241 117,5 → 241 118; 60 % of it 144 670,8 → 144 671; 9B × 1,3 = 203 836,1
      expected: { principal: 241_118, auxiliar1: 144_671, anestesista: 203_836 },
    },
    {
      name: "apartment doubles every porte",
      input: input({ accommodation: "apartamento" }),
      expected: { principal: 370_950, auxiliar1: 222_570, anestesista: 313_594 },
    },
    {
      name: "apartment and urgency together",
      input: input({ accommodation: "apartamento", urgent: true }),
      expected: { principal: 482_235, auxiliar1: 289_341, anestesista: 407_672 },
    },
    {
      name: "2 assistants at the CBHPM 60/40",
      input: input({ procedures: [DECOMPRESSION], team: { surgeonId: SURGEON, assistantIds: [AUX1, AUX2, null, null], anesthetistId: null } }),
      expected: { principal: 172_781, auxiliar1: 103_669, auxiliar2: 69_112 },
    },
    {
      name: "2 assistants with a payer on the old 30/20",
      input: input({
        procedures: [DECOMPRESSION],
        team: { surgeonId: SURGEON, assistantIds: [AUX1, AUX2, null, null], anesthetistId: null },
        rules: { ...DEFAULT_FEE_RULES, assistantPercents: [30, 20, 20, 20] },
      }),
      expected: { principal: 172_781, auxiliar1: 51_834, auxiliar2: 34_556 },
    },
    {
      name: "a bilateral procedure by different incisions adds its other side at 70 %",
      input: input({ procedures: [{ ...MICRODISCECTOMY, bilateral: true, route: "different" }], team: { surgeonId: SURGEON, assistantIds: [null, null, null, null], anesthetistId: ANEST } }),
      expected: { principal: 185_475 + 129_833, anestesista: 156_797 + 109_758 },
    },
  ];

  for (const { name, input: given, expected } of cases) {
    it(name, () => {
      expect(totals(computeFeeLines(given))).toEqual(expected);
    });
  }

  it("records on every line how it was computed", () => {
    const { lines } = computeFeeLines(input({ accommodation: "apartamento", urgent: true }));
    const anaesthetist = lines.find((l) => l.role === "anestesista")!;
    expect(anaesthetist).toMatchObject({ porte: "9B", anestheticPorte: 6, porteValueCents: 156_797, procedurePercent: 100, accommodationFactor: 2, urgencyPercent: 30 });
    expect(feeLineBasis(anaesthetist, formatBRL).replace(/\s/g, " ")).toBe("AN6 = porte 9B (R$ 1.567,97) × 100% × 2 (apartamento) + 30% (urgência)");
    const assistant = lines.find((l) => l.role === "auxiliar")!;
    expect(feeLineBasis(assistant, formatBRL).replace(/\s/g, " ")).toBe("Porte 10A (R$ 1.854,75) × 100% × 2 (apartamento) + 30% (urgência) → 60% do cirurgião");
  });

  it("takes the number of assistants from the highest-porte procedure and says when one is not paid", () => {
    const result = computeFeeLines(input({ team: { surgeonId: SURGEON, assistantIds: [AUX1, AUX2, null, null], anesthetistId: null } }));
    expect(result.assistantsAllowed).toBe(1);
    expect(result.lines.some((l) => l.doctorId === AUX2)).toBe(false);
    expect(result.warnings[0]).toMatch(/prevê 1 auxiliar/);
    const both = computeFeeLines(input({ procedures: [MICRODISCECTOMY, ARTHRODESIS], team: { surgeonId: SURGEON, assistantIds: [AUX1, AUX2, null, null], anesthetistId: null } }));
    expect(both.assistantsAllowed).toBe(2);
  });

  it("pays an act without a porte anestésico as porte 3 (4C) and none for AN0", () => {
    const noAnaesthesia = computeFeeLines(input({ procedures: [{ ...MICRODISCECTOMY, anestheticPorte: null }] }));
    expect(totals(noAnaesthesia).anestesista).toBe(49_133);
    const zero = computeFeeLines(input({ procedures: [{ ...MICRODISCECTOMY, anestheticPorte: 0 }] }));
    expect(zero.lines.some((l) => l.role === "anestesista")).toBe(false);
  });

  it("refuses what it cannot price, naming what is missing", () => {
    expect(() => computeFeeLines(input({ procedures: [] }))).toThrow(FeeEngineError);
    expect(() => computeFeeLines(input({ team: { surgeonId: null, assistantIds: [], anesthetistId: null } }))).toThrow("Informe o cirurgião da equipe.");
    expect(() => computeFeeLines(input({ porteValues: { "10A": 185_475 } }))).toThrow("A tabela de portes do convênio não tem valor para: 9B.");
    expect(() => computeFeeLines(input({ procedures: [{ ...MICRODISCECTOMY, porte: null }] }))).toThrow(/sem porte CBHPM: 3.07.15.18-0/);
  });

  it("orders the 42 portes from 1A to 14C", () => {
    expect(PORTES).toHaveLength(42);
    expect(porteRank("14C")).toBeGreaterThan(porteRank("14A"));
    expect(porteRank("10A")).toBeGreaterThan(porteRank("9C"));
  });
});

describe("urgency from the surgery's time (CBHPM 2.1, São Paulo time)", () => {
  const at = (iso: string) => new Date(iso);
  const cases: Array<[string, Date, number | null, ReturnType<typeof deriveUrgency>]> = [
    ["a Tuesday at 10h", at("2026-03-10T13:00:00Z"), 120, { urgent: false, reason: null }],
    ["a Tuesday at 20h", at("2026-03-10T23:00:00Z"), 120, { urgent: true, reason: "noturno" }],
    ["a Wednesday at 6h59", at("2026-03-11T09:59:00Z"), null, { urgent: true, reason: "noturno" }],
    ["a Saturday at 10h", at("2026-03-14T13:00:00Z"), 60, { urgent: true, reason: "fim_de_semana" }],
    ["Tiradentes (a Tuesday holiday) at 10h", at("2026-04-21T13:00:00Z"), 60, { urgent: true, reason: "feriado" }],
    ["17h for 4 h: half in the period is not more than half", at("2026-03-10T20:00:00Z"), 240, { urgent: false, reason: null }],
    ["17h for 5 h: most of it after 19h", at("2026-03-10T20:00:00Z"), 300, { urgent: true, reason: "maior_parte" }],
  ];
  for (const [name, start, duration, expected] of cases) {
    it(name, () => expect(deriveUrgency(start, duration)).toEqual(expected));
  }
  it("counts the clinic's own holidays", () => {
    expect(deriveUrgency(at("2026-03-10T13:00:00Z"), 60, new Set(["2026-03-10"]))).toEqual({ urgent: true, reason: "feriado" });
  });
});
