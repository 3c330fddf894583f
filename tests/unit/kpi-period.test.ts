/** The KPI period contract: presets, custom ranges, bad URLs, previous period, instants, deltas. */
import { describe, expect, test } from "vitest";
import {
  KPI_PERIOD_MESSAGES,
  KPI_PRESET_LABELS,
  KPI_PRESETS,
  addDaysIso,
  compareFigures,
  daysInPeriod,
  dateTextRange,
  describePeriod,
  eachDateOfPeriod,
  instantRange,
  kpiPeriodQuery,
  parseKpiPeriod,
} from "~/lib/kpi-period";

// 2026-11-24 01:30 UTC is still 23 November in São Paulo (22:30, UTC-3).
const NOW = new Date("2026-11-24T01:30:00Z");
const parse = (query: string) => parseKpiPeriod(new URLSearchParams(query), NOW);

describe("presets", () => {
  test("labels in Portuguese for every preset", () => {
    expect(KPI_PRESETS.map((p) => KPI_PRESET_LABELS[p])).toEqual([
      "Este mês",
      "Mês anterior",
      "Últimos 90 dias",
      "Este ano",
      "Personalizado",
    ]);
  });

  test("default is this month so far, in São Paulo, compared with the same number of days before", () => {
    const parsed = parse("");
    expect(parsed.preset).toBe("mes");
    expect(parsed.period).toEqual({ from: "2026-11-01", to: "2026-11-23" });
    expect(parsed.previous).toEqual({ from: "2026-10-09", to: "2026-10-31" });
    expect(parsed.errors).toBeUndefined();
  });

  test("last month is the whole previous month; the previous period has the same length", () => {
    const parsed = parse("periodo=mes-anterior");
    expect(parsed.period).toEqual({ from: "2026-10-01", to: "2026-10-31" });
    expect(parsed.previous).toEqual({ from: "2026-08-31", to: "2026-09-30" });
    expect(daysInPeriod(parsed.previous)).toBe(31);
  });

  test("last 90 days and this year end today", () => {
    expect(parse("periodo=90-dias").period).toEqual({ from: "2026-08-26", to: "2026-11-23" });
    expect(daysInPeriod(parse("periodo=90-dias").period)).toBe(90);
    expect(parse("periodo=ano").period).toEqual({ from: "2026-01-01", to: "2026-11-23" });
    expect(parse("periodo=ano").previous.to).toBe("2025-12-31");
  });

  test("January: last month crosses the year", () => {
    const parsed = parseKpiPeriod(new URLSearchParams("periodo=mes-anterior"), new Date("2027-01-10T12:00:00Z"));
    expect(parsed.period).toEqual({ from: "2026-12-01", to: "2026-12-31" });
  });
});

describe("custom range", () => {
  test("accepts ISO and dd/mm/aaaa dates, both inclusive", () => {
    const parsed = parse("periodo=personalizado&de=2024-02-01&ate=29/02/2024");
    expect(parsed.preset).toBe("personalizado");
    expect(parsed.period).toEqual({ from: "2024-02-01", to: "2024-02-29" });
    expect(parsed.previous).toEqual({ from: "2024-01-03", to: "2024-01-31" });
    expect(parsed.errors).toBeUndefined();
  });

  test.each([
    ["periodo=personalizado", { de: KPI_PERIOD_MESSAGES.dateRequired, ate: KPI_PERIOD_MESSAGES.dateRequired }],
    ["periodo=personalizado&de=2024-02-30&ate=2024-03-01", { de: KPI_PERIOD_MESSAGES.dateInvalid }],
    ["periodo=personalizado&de=abc&ate=9999-99-99", { de: KPI_PERIOD_MESSAGES.dateInvalid, ate: KPI_PERIOD_MESSAGES.dateInvalid }],
    ["periodo=personalizado&de=2024-03-10&ate=2024-03-01", { ate: KPI_PERIOD_MESSAGES.inverted }],
    ["periodo=personalizado&de=2000-01-01&ate=2024-01-01", { ate: KPI_PERIOD_MESSAGES.tooLong }],
    ["periodo=personalizado&de=9999-12-31&ate=9999-12-31", { de: KPI_PERIOD_MESSAGES.dateInvalid, ate: KPI_PERIOD_MESSAGES.dateInvalid }],
    ["periodo=semana", { periodo: KPI_PERIOD_MESSAGES.presetInvalid }],
  ])("%s → default preset plus a field message", (query, errors) => {
    const parsed = parse(query);
    expect(parsed.preset).toBe("mes");
    expect(parsed.period).toEqual({ from: "2026-11-01", to: "2026-11-23" });
    expect(parsed.errors).toEqual(errors);
    expect(() => instantRange(parsed.period)).not.toThrow();
  });

  test("dates without a preset mean a custom range; the typed text is echoed back", () => {
    expect(parse("de=2025-01-01&ate=2025-01-01").period).toEqual({ from: "2025-01-01", to: "2025-01-01" });
    expect(parse("periodo=personalizado&de=x&ate=2025-01-01").input).toEqual({ de: "x", ate: "2025-01-01" });
  });

  test("a range of exactly ten years is accepted", () => {
    expect(parse("periodo=personalizado&de=2014-01-01&ate=2023-12-31").errors).toBeUndefined();
  });
});

describe("ranges and helpers", () => {
  test("instantRange is São Paulo midnight to the midnight after the last day", () => {
    const [start, end] = instantRange({ from: "2026-11-01", to: "2026-11-23" });
    expect(new Date(start).toISOString()).toBe("2026-11-01T03:00:00.000Z");
    expect(new Date(end).toISOString()).toBe("2026-11-24T03:00:00.000Z");
    // 2018 summer time (UTC-2) in São Paulo.
    expect(new Date(instantRange({ from: "2018-12-01", to: "2018-12-01" })[0]).toISOString()).toBe(
      "2018-12-01T02:00:00.000Z",
    );
  });

  test("date text range, day list, description and URL query", () => {
    expect(dateTextRange({ from: "2024-02-01", to: "2024-02-29" })).toEqual(["2024-02-01", "2024-03-01"]);
    expect(eachDateOfPeriod({ from: "2024-02-27", to: "2024-03-01" })).toEqual([
      "2024-02-27",
      "2024-02-28",
      "2024-02-29",
      "2024-03-01",
    ]);
    expect(addDaysIso("2024-12-31", 1)).toBe("2025-01-01");
    expect(describePeriod({ from: "2024-02-01", to: "2024-02-29" })).toBe("01/02/2024 a 29/02/2024");
    expect(describePeriod({ from: "2024-02-01", to: "2024-02-01" })).toBe("01/02/2024");
    expect(kpiPeriodQuery(parse("periodo=ano"), { medico: "d1", pagador: "" })).toBe("periodo=ano&medico=d1");
    expect(kpiPeriodQuery(parse("de=2025-01-01&ate=2025-01-31"))).toBe(
      "periodo=personalizado&de=2025-01-01&ate=2025-01-31",
    );
  });

  test("compareFigures", () => {
    expect(compareFigures(120, 100)).toEqual({ current: 120, previous: 100, deltaPercent: 20 });
    expect(compareFigures(50, 100).deltaPercent).toBe(-50);
    expect(compareFigures(5, 0)).toEqual({ current: 5, previous: 0, deltaPercent: null });
    expect(compareFigures(5, null).deltaPercent).toBeNull();
    expect(compareFigures(null, 5)).toEqual({ current: null, previous: 5, deltaPercent: null });
    expect(compareFigures(Number.NaN, 5).current).toBeNull();
  });
});
