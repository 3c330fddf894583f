import { CBHPM_BAND_LABELS, type CbhpmBand } from "../enums";

/**
 * CBHPM portes (DOMAIN.md §1): 14 portes × sub-portes A/B/C, '1A' (lowest) … '14C' (highest).
 * A porte is not money: its value comes from the table (edition and band) the payer pays by.
 */
export const PORTES = Array.from({ length: 14 }, (_, i) => ["A", "B", "C"].map((sub) => `${i + 1}${sub}`)).flat();
export type Porte = string;

export function isPorte(value: unknown): value is Porte {
  return typeof value === "string" && PORTES.includes(value);
}

/** Position of a porte in the scale (higher is a bigger procedure); -1 when not a porte. */
export function porteRank(porte: string | null | undefined): number {
  return porte ? PORTES.indexOf(porte) : -1;
}

/** Porte anestésico → the surgical porte it is valued as (CBHPM pp. 139–140). AN0: no anaesthetist. */
export const ANESTHETIC_PORTE_EQUIVALENT: Record<number, Porte> = {
  1: "3A",
  2: "3C",
  3: "4C",
  4: "6B",
  5: "7C",
  6: "9B",
  7: "10C",
  8: "12A",
};
/** An act without a porte anestésico is paid as porte 3 (code 3.16.02.34-7). */
export const DEFAULT_ANESTHETIC_PORTE = 3;

/**
 * A porte table lives in `reference_fee_schedules` as kind CBHPM, year = the edition, one row per
 * porte; the band is the version label ('Portes – Faixa I'), so procedure codes and porte values
 * of one edition sit side by side without colliding.
 */
export const PORTE_TABLE_PREFIX = "Portes – ";
export function porteTableVersion(band: CbhpmBand): string {
  return `${PORTE_TABLE_PREFIX}${CBHPM_BAND_LABELS[band]}`;
}
export function isPorteTableVersion(version: string): boolean {
  return version.startsWith(PORTE_TABLE_PREFIX);
}
