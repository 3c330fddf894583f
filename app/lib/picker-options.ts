import { formatCpf } from "./documents";

/** One choice of an EntityPicker. */
export interface PickerOption {
  id: number;
  label: string;
}

/** 'Maria da Silva · CPF 123.456.789-09': the same label whether the server or a search made it. */
export function patientOption(p: { id: number; name: string; cpf?: string | null }): PickerOption {
  return { id: p.id, label: p.cpf ? `${p.name} · CPF ${formatCpf(p.cpf)}` : p.name };
}

/** 'Dr. Ricardo Figueiredo · Neurocirurgia'. */
export function doctorOption(d: { id: number; name: string; specialty?: string | null }): PickerOption {
  return { id: d.id, label: d.specialty ? `${d.name} · ${d.specialty}` : d.name };
}

function text(value: unknown) {
  return typeof value === "string" ? value : null;
}

/** An item of `/api/patients` as an option; anything malformed is skipped. */
export function patientOptionFromJson(item: Record<string, unknown>): PickerOption | null {
  if (typeof item.id !== "number" || typeof item.name !== "string") return null;
  return patientOption({ id: item.id, name: item.name, cpf: text(item.cpf) });
}

/** An item of `/api/doctors` as an option; anything malformed is skipped. */
export function doctorOptionFromJson(item: Record<string, unknown>): PickerOption | null {
  if (typeof item.id !== "number" || typeof item.name !== "string") return null;
  return doctorOption({ id: item.id, name: item.name, specialty: text(item.specialty) });
}

/** The options in a picker endpoint's answer (`{ patients: [...] }`), skipping anything malformed. */
export function optionsFromJson(
  body: unknown,
  resultsKey: string,
  toOption: (item: Record<string, unknown>) => PickerOption | null,
): PickerOption[] {
  const list = body && typeof body === "object" ? (body as Record<string, unknown>)[resultsKey] : undefined;
  if (!Array.isArray(list)) return [];
  return list
    .filter((item): item is Record<string, unknown> => !!item && typeof item === "object")
    .map(toOption)
    .filter((option): option is PickerOption => option !== null);
}

/** An item of an endpoint that labels its own options (`/api/surgeries`); anything malformed is skipped. */
export function labelledOptionFromJson(item: Record<string, unknown>): PickerOption | null {
  if (typeof item.id !== "number" || typeof item.label !== "string") return null;
  return { id: item.id, label: item.label };
}
