import { Search } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Select } from "~/components/ui/select";
import { type PickerOption, doctorOptionFromJson, patientOptionFromJson } from "~/lib/picker-options";

export type { PickerOption } from "~/lib/picker-options";

export interface EntityPickerProps {
  /** Field posted with the form (`patientId`). */
  name: string;
  label: string;
  /** Query parameter holding the search text (`patientQ`); the loader answers it with `options`. */
  searchParam: string;
  /** JSON endpoint answering `?q=&limit=` (`/api/patients`). */
  endpoint: string;
  /** Turns one item of the endpoint's answer into an option. */
  toOption: (item: Record<string, unknown>) => PickerOption | null;
  /** Key of the list in the endpoint's answer (`patients`). */
  resultsKey: string;
  /** Options rendered by the server: the matches for the current search, with the selected one first. */
  options: PickerOption[];
  defaultValue?: number | null;
  searchDefault?: string;
  searchPlaceholder?: string;
  errors?: string[];
  errorId?: string;
  required?: boolean;
}

/**
 * A select that stays usable with thousands of rows: it only ever holds the matches for a search.
 * With JavaScript, typing fetches matches as you type. Without it, 'Buscar' resubmits the dialog's
 * form as a GET (`formMethod="get"`), so the server renders the matches and keeps what was typed.
 * Without JavaScript, forms holding a picker should start with a hidden default submit button, so
 * Enter in a text field saves rather than searches.
 */
export function EntityPicker({
  name,
  label,
  searchParam,
  endpoint,
  toOption,
  resultsKey,
  options: serverOptions,
  defaultValue,
  searchDefault = "",
  searchPlaceholder = "Digite para buscar...",
  errors,
  errorId,
  required,
}: EntityPickerProps) {
  const id = useId();
  const selectRef = useRef<HTMLSelectElement>(null);
  const [options, setOptions] = useState(serverOptions);
  const [status, setStatus] = useState<"idle" | "loading" | "error">("idle");
  const searchRef = useRef<HTMLInputElement>(null);
  // Until hydration 'Buscar' submits the form as a GET; afterwards it searches in place, so it
  // is never the form's default button (Enter saves) and form validation never blocks it.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const request = useRef<AbortController>(undefined);

  // New options from the server (a 'Buscar' round trip, a revalidation) replace the list; a mere
  // re-render with an equal list must not throw away what a search just fetched.
  const serverKey = serverOptions.map((o) => `${o.id}:${o.label}`).join("|");
  useEffect(() => setOptions(serverOptions), [serverKey]); // serverKey stands for serverOptions' content
  useEffect(() => () => clearTimeout(timer.current), []);

  function search(q: string) {
    request.current?.abort();
    const controller = new AbortController();
    request.current = controller;
    setStatus("loading");
    fetch(`${endpoint}?${new URLSearchParams({ q, limit: "20" })}`, { signal: controller.signal })
      .then((response) => (response.ok ? response.json() : Promise.reject(new Error(String(response.status)))))
      .then((body: Record<string, unknown>) => {
        const list = Array.isArray(body[resultsKey]) ? (body[resultsKey] as Record<string, unknown>[]) : [];
        const found = list.map(toOption).filter((o): o is PickerOption => o !== null);
        // Keep the current choice available even when it does not match the new search.
        const selectedId = Number(selectRef.current?.value);
        setOptions((current) => {
          const selected = current.find((o) => o.id === selectedId);
          return selected && !found.some((o) => o.id === selected.id) ? [selected, ...found] : found;
        });
        setStatus("idle");
      })
      .catch((error: unknown) => {
        if ((error as Error).name !== "AbortError") setStatus("error");
      });
  }

  const describedBy = [errors?.length ? errorId : null, `${id}-status`].filter(Boolean).join(" ");
  return (
    <div className="space-y-2">
      <Label htmlFor={`${id}-select`}>
        {label}
        {required ? (
          <span aria-hidden="true" className="text-destructive">
            {" "}*
          </span>
        ) : null}
      </Label>
      <div className="flex gap-2">
        <Input
          ref={searchRef}
          type="search"
          name={searchParam}
          defaultValue={searchDefault}
          placeholder={searchPlaceholder}
          aria-label={`Buscar ${label.toLowerCase()}`}
          autoComplete="off"
          onChange={(event) => {
            const q = event.currentTarget.value;
            clearTimeout(timer.current);
            timer.current = setTimeout(() => search(q), 250);
          }}
          onKeyDown={(event) => {
            // Enter searches here instead of submitting the dialog.
            if (event.key !== "Enter") return;
            event.preventDefault();
            clearTimeout(timer.current);
            search(event.currentTarget.value);
          }}
        />
        <Button
          {...(hydrated
            ? { type: "button" as const, onClick: () => search(searchRef.current?.value ?? "") }
            : { type: "submit" as const, formMethod: "get", formNoValidate: true, name: "picker", value: name })}
          variant="outline"
        >
          <Search aria-hidden />
          Buscar
        </Button>
      </div>
      <Select
        id={`${id}-select`}
        ref={selectRef}
        name={name}
        defaultValue={defaultValue ? String(defaultValue) : ""}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={describedBy}
      >
        <option value="">{options.length ? "Selecione..." : "Nenhum resultado — refine a busca"}</option>
        {options.map((option) => (
          <option key={option.id} value={option.id}>
            {option.label}
          </option>
        ))}
      </Select>
      <p id={`${id}-status`} className="text-xs text-muted-foreground" aria-live="polite">
        {status === "loading" ? "Buscando..." : status === "error" ? "Não foi possível buscar agora. Tente novamente." : `${options.length} resultado(s)`}
      </p>
      {errors?.length ? (
        <p id={errorId} role="alert" className="text-sm text-destructive">
          {errors[0]}
        </p>
      ) : null}
    </div>
  );
}

/**
 * Put first in a form that holds pickers: the browser's implicit submission (Enter in a text field)
 * uses the form's first submit button, which must be the save, not a picker's 'Buscar'.
 */
export function DefaultSubmitButton({ label = "Salvar" }: { label?: string }) {
  return (
    <button type="submit" tabIndex={-1} aria-hidden="true" className="sr-only">
      {label}
    </button>
  );
}

type BoundPickerProps = Omit<EntityPickerProps, "name" | "label" | "searchParam" | "endpoint" | "resultsKey" | "toOption">;

/** The patient picker of the dialogs: field `patientId`, searching `/api/patients`. */
export function PatientPicker(props: BoundPickerProps) {
  return (
    <EntityPicker
      name="patientId"
      label="Paciente"
      searchParam="patientQ"
      endpoint="/api/patients"
      resultsKey="patients"
      toOption={patientOptionFromJson}
      {...props}
    />
  );
}

/** The doctor picker of the dialogs: field `doctorId`, searching `/api/doctors` (active doctors). */
export function DoctorPicker(props: BoundPickerProps) {
  return (
    <EntityPicker
      name="doctorId"
      label="Médico"
      searchParam="doctorQ"
      endpoint="/api/doctors"
      resultsKey="doctors"
      toOption={doctorOptionFromJson}
      {...props}
    />
  );
}
