/** The Cadastros tabs (SPEC §2): the tab lives in the path; /master-data opens the first. Browser-safe. */
export const MASTER_DATA_TABS = ["payers", "hospitals", "codes", "suppliers"] as const;
export type MasterDataTab = (typeof MASTER_DATA_TABS)[number];

export const MASTER_DATA_TAB_LABELS: Record<MasterDataTab, string> = {
  payers: "Pagadores",
  hospitals: "Hospitais",
  codes: "Códigos Médicos",
  suppliers: "Fornecedores",
};

/** '/master-data/hospitals/…' → 'hospitals'; '/master-data' → 'payers'. */
export function masterDataTabOf(pathname: string): MasterDataTab {
  const segment = pathname.split("/")[2] ?? "";
  return (MASTER_DATA_TABS as readonly string[]).includes(segment) ? (segment as MasterDataTab) : "payers";
}
