/** Shared by the KPI model tests: November 2026 in São Paulo (UTC−3), seen on 15 December. */
import { sqlite } from "~/.server/db";
import { insertDoctor, insertPayer } from "./helpers";

export const NOVEMBER = { from: "2026-11-01", to: "2026-11-30" };
export const NOW = new Date("2026-12-15T12:00:00Z");

/** A UTC instant written without its 'Z'. */
export const at = (iso: string) => new Date(`${iso}Z`);

/** Two payers and two doctors. */
export function insertKpiCast() {
  return {
    payerA: insertPayer("Unimed"),
    payerB: insertPayer("Bradesco Saúde"),
    doctor1: insertDoctor("Dr. Um"),
    doctor2: insertDoctor("Dra. Dois"),
  };
}

/** A statement's EXPLAIN QUERY PLAN, one step a line, with every named parameter a KPI query uses bound. */
export function planOf(statement: string): string {
  const params = { start: 0, end: 1, doctor: 1, payer: 1, asOf: 1, type: "receita", from: "a", to: "b", toExclusive: "b" };
  return (sqlite.prepare(`explain query plan ${statement}`).all(params) as { detail: string }[]).map((r) => r.detail).join("\n");
}

/** Every combination of the doctor and payer filters. */
export const FILTER_VARIANTS = [{}, { doctorId: 1 }, { payerId: 1 }, { doctorId: 1, payerId: 1 }];
