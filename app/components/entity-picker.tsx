import { Check, ChevronsUpDown, LoaderCircle, Search } from "~/components/icons";
import { type KeyboardEvent, type RefObject, useEffect, useId, useRef, useState } from "react";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Select } from "~/components/ui/select";
import { useSearchParams } from "react-router";
import { parseId } from "~/lib/list-params";
import { type PickerOption, doctorOptionFromJson, labelledOptionFromJson, optionsFromJson, patientOptionFromJson } from "~/lib/picker-options";
import { cn } from "~/lib/utils";
import { useHydrated } from "~/lib/use-hydrated";

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
  options: readonly PickerOption[];
  defaultValue?: number | null;
  searchDefault?: string;
  searchPlaceholder?: string;
  errors?: string[];
  errorId?: string;
  required?: boolean;
}

/** Matches asked of the endpoint per search; a full page means there may be more. */
const SEARCH_LIMIT = 20;
/** Typing pause before a search is sent. */
const SEARCH_DELAY_MS = 200;


/**
 * Picks one patient or doctor out of thousands. The server renders a text box, a 'Buscar' button
 * that resubmits the dialog's form as a GET (`formMethod="get"`, so the server renders the matches
 * and keeps what was typed) and a select of the matches: that works without JavaScript. Once
 * hydrated it becomes one combobox (WAI-ARIA pattern) that searches the JSON endpoint as you type;
 * a hidden input posts the chosen id under the same name, so the action cannot tell them apart.
 */
export function EntityPicker(props: EntityPickerProps) {
  const hydrated = useHydrated();
  const fallback = useRef<HTMLDivElement>(null);
  return hydrated ? <EntityCombobox {...props} fallback={fallback} /> : <EntityPickerFallback {...props} containerRef={fallback} />;
}

function RequiredMark({ required }: { required?: boolean }) {
  return required ? (
    <span aria-hidden="true" className="text-destructive">
      {" "}*
    </span>
  ) : null;
}

function PickerErrors({ errors, errorId }: Pick<EntityPickerProps, "errors" | "errorId">) {
  return errors?.length ? (
    <p id={errorId} role="alert" className="text-sm text-destructive">
      {errors[0]}
    </p>
  ) : null;
}

/** The server-rendered picker: search box, 'Buscar' (a GET round trip) and a select of the matches. */
function EntityPickerFallback({
  name,
  label,
  searchParam,
  options,
  defaultValue,
  searchDefault = "",
  searchPlaceholder = "Digite para buscar...",
  errors,
  errorId,
  required,
  containerRef,
}: EntityPickerProps & { containerRef: RefObject<HTMLDivElement | null> }) {
  const id = useId();
  const describedBy = [errors?.length ? errorId : null, `${id}-status`].filter(Boolean).join(" ");
  return (
    <div ref={containerRef} className="space-y-2">
      <Label htmlFor={`${id}-select`}>
        {label}
        <RequiredMark required={required} />
      </Label>
      <div className="flex gap-2">
        <Input
          type="search"
          name={searchParam}
          defaultValue={searchDefault}
          placeholder={searchPlaceholder}
          aria-label={`Buscar ${label.toLowerCase()}`}
          autoComplete="off"
        />
        <Button type="submit" formMethod="get" formNoValidate name="picker" value={name} variant="outline">
          <Search aria-hidden />
          Buscar
        </Button>
      </div>
      <Select
        id={`${id}-select`}
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
      <p id={`${id}-status`} className="text-xs text-muted-foreground">
        {`${options.length} resultado(s)`}
      </p>
      <PickerErrors errors={errors} errorId={errorId} />
    </div>
  );
}

/**
 * What the server-rendered picker holds at the moment it is replaced: a choice or a search made
 * before the page finished loading is kept. Called while rendering the combobox, before the swap.
 */
function readFallback(container: HTMLDivElement | null): { selected: PickerOption | null; text: string } | null {
  const select = container?.querySelector("select");
  const search = container?.querySelector<HTMLInputElement>("input[type=search]");
  if (!select || !search) return null;
  const chosen = select.selectedOptions[0];
  const id = Number(select.value);
  return { selected: Number.isInteger(id) && id > 0 && chosen ? { id, label: chosen.text } : null, text: search.value };
}

type SearchStatus = "idle" | "loading" | "error";

/** The picker once JavaScript runs: a text box that searches as you type, with a listbox of matches. */
function EntityCombobox({
  name,
  label,
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
  fallback,
}: EntityPickerProps & { fallback: RefObject<HTMLDivElement | null> }) {
  const id = useId();
  const inputId = `${id}-input`;
  const listboxId = `${id}-listbox`;
  const optionId = (option: PickerOption) => `${id}-option-${option.id}`;

  const [initial] = useState(() => {
    const before = readFallback(fallback.current);
    const selected = before ? before.selected : (serverOptions.find((o) => o.id === defaultValue) ?? null);
    return { selected, text: selected?.label ?? before?.text ?? searchDefault };
  });
  const [selected, setSelected] = useState<PickerOption | null>(initial.selected);
  const [text, setText] = useState(initial.text);
  const [options, setOptions] = useState(serverOptions);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [status, setStatus] = useState<SearchStatus>("idle");
  const [complete, setComplete] = useState(serverOptions.length < SEARCH_LIMIT);
  const [blurs, setBlurs] = useState(0);

  const hidden = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const request = useRef<AbortController>(undefined);
  const pendingQuery = useRef<string | null>(null);
  const lastResults = useRef(serverOptions);

  useEffect(
    () => () => {
      clearTimeout(timer.current);
      request.current?.abort();
    },
    [],
  );

  // Conform listens for input and blur events on named fields; the hidden input gets none by
  // itself, so tell it when the choice changes (revalidation) and when the picker is left (validation).
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    hidden.current?.dispatchEvent(new Event("input", { bubbles: true }));
  }, [selected?.id]);
  useEffect(() => {
    if (blurs > 0) hidden.current?.dispatchEvent(new FocusEvent("focusout", { bubbles: true }));
  }, [blurs]);

  // Keep the highlighted option in view while moving with the arrows.
  const activeOption = open && active >= 0 ? options[active] : undefined;
  useEffect(() => {
    if (activeOption) document.getElementById(optionId(activeOption))?.scrollIntoView({ block: "nearest" });
  }, [activeOption?.id]); // optionId only depends on the id

  function cancelSearch() {
    clearTimeout(timer.current);
    pendingQuery.current = null;
    request.current?.abort();
  }

  function search(q: string) {
    cancelSearch();
    const controller = new AbortController();
    request.current = controller;
    setStatus("loading");
    fetch(`${endpoint}?${new URLSearchParams({ q, limit: String(SEARCH_LIMIT) })}`, {
      signal: controller.signal,
      headers: { Accept: "application/json" },
    })
      .then((response) => (response.ok ? response.json() : Promise.reject(new Error(String(response.status)))))
      .then((body: unknown) => {
        const found = optionsFromJson(body, resultsKey, toOption);
        lastResults.current = found;
        setOptions(found);
        setComplete(found.length < SEARCH_LIMIT);
        setActive(-1);
        setStatus("idle");
      })
      .catch((error: unknown) => {
        if ((error as Error).name !== "AbortError") setStatus("error");
      });
  }

  function onType(value: string) {
    setText(value);
    setOpen(true);
    setActive(-1);
    // Old matches go at once, so a quick Enter can never pick something the new text does not match.
    setOptions([]);
    setStatus("loading");
    cancelSearch();
    pendingQuery.current = value.trim();
    timer.current = setTimeout(() => search(value.trim()), SEARCH_DELAY_MS);
  }

  function openList(highlight: "selected" | "first" | "last" | "none") {
    setOpen(true);
    const at = selected ? options.findIndex((o) => o.id === selected.id) : -1;
    if (highlight === "none" || options.length === 0) setActive(-1);
    else if (highlight === "last") setActive(options.length - 1);
    else setActive(highlight === "selected" && at >= 0 ? at : 0);
  }

  function choose(option: PickerOption) {
    cancelSearch();
    setSelected(option);
    setText(option.label);
    setOpen(false);
    setActive(-1);
    setStatus("idle");
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    switch (event.key) {
      case "ArrowDown":
        event.preventDefault();
        if (!open) openList(event.altKey ? "none" : "selected");
        else if (options.length) setActive((i) => (i + 1) % options.length);
        return;
      case "ArrowUp":
        event.preventDefault();
        if (!open) openList("last");
        else if (options.length) setActive((i) => (i <= 0 ? options.length - 1 : i - 1));
        return;
      case "Enter":
        // Closed: Enter submits the form as in any text field. Open: it picks, or searches now.
        if (!open) return;
        event.preventDefault();
        if (activeOption) choose(activeOption);
        else if (pendingQuery.current !== null) search(pendingQuery.current);
        return;
      case "Escape":
        // The dialog closes on an Escape nobody handled: first close the list, then undo the typing.
        if (open) {
          event.preventDefault();
          setOpen(false);
          setActive(-1);
        } else if (text !== (selected?.label ?? "")) {
          event.preventDefault();
          restore(selected);
        }
        return;
      case "Tab":
        setOpen(false);
        return;
    }
  }

  /** Puts the text back to the choice (or empty), with the last matches found, dropping a search under way. */
  function restore(choice: PickerOption | null) {
    cancelSearch();
    setText(choice?.label ?? "");
    setStatus("idle");
    const results = lastResults.current;
    setOptions(choice && !results.some((o) => o.id === choice.id) ? [choice, ...results] : results);
    setComplete(results.length < SEARCH_LIMIT);
  }

  function onBlur() {
    setOpen(false);
    setActive(-1);
    if (text.trim() === "") {
      // Emptying the box and leaving it clears the choice.
      setSelected(null);
      restore(null);
    } else if (selected && text !== selected.label) {
      // The box always names what will be saved: an abandoned search goes back to the choice.
      restore(selected);
    }
    setBlurs((n) => n + 1);
  }

  const invalid = Boolean(errors?.length);
  const message =
    status === "loading"
      ? "Buscando..."
      : status === "error"
        ? "Não foi possível buscar agora. Tente novamente."
        : options.length === 0
          ? "Nenhum resultado"
          : complete
            ? null
            : `Mostrando os ${SEARCH_LIMIT} primeiros. Continue digitando para refinar.`;
  const announcement = !open
    ? ""
    : status === "loading"
      ? ""
      : status === "error"
        ? "Falha na busca."
        : options.length === 0
          ? "Nenhum resultado encontrado."
          : `${options.length} resultado(s).`;

  return (
    <div className="space-y-2">
      <Label htmlFor={inputId}>
        {label}
        <RequiredMark required={required} />
      </Label>
      <input ref={hidden} type="hidden" name={name} value={selected ? String(selected.id) : ""} />
      <div className="relative">
        <Input
          id={inputId}
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={listboxId}
          aria-activedescendant={activeOption ? optionId(activeOption) : undefined}
          aria-required={required || undefined}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? errorId : undefined}
          autoComplete="off"
          spellCheck={false}
          placeholder={searchPlaceholder}
          className="pr-9"
          value={text}
          onChange={(event) => onType(event.currentTarget.value)}
          onKeyDown={onKeyDown}
          onBlur={onBlur}
          onClick={() => open || openList("none")}
          onFocus={(event) => {
            // Typing over a choice replaces it rather than appending to its label.
            if (selected && text === selected.label) event.currentTarget.select();
          }}
        />
        {status === "loading" && open ? (
          <LoaderCircle aria-hidden className="pointer-events-none absolute top-2.5 right-3 size-4 animate-spin text-muted-foreground" />
        ) : (
          <ChevronsUpDown aria-hidden className="pointer-events-none absolute top-2.5 right-3 size-4 text-muted-foreground opacity-60" />
        )}
        <div
          hidden={!open}
          // Clicks inside the list must not take the focus from the text box (that would close it).
          onMouseDown={(event) => event.preventDefault()}
          className="absolute inset-x-0 top-full z-50 mt-1 overflow-hidden rounded-md border bg-popover text-popover-foreground shadow-md"
        >
          <ul id={listboxId} role="listbox" aria-label={label} className="max-h-60 overflow-y-auto p-1 empty:hidden">
            {options.map((option, index) => (
              <li
                key={option.id}
                id={optionId(option)}
                role="option"
                aria-selected={index === active}
                onMouseMove={() => index !== active && setActive(index)}
                onClick={() => choose(option)}
                className={cn(
                  "flex cursor-pointer items-center gap-2 rounded-sm px-2 py-1.5 text-sm",
                  index === active && "bg-accent text-accent-foreground",
                )}
              >
                <Check aria-hidden className={cn("size-4 shrink-0", selected?.id === option.id ? "opacity-100" : "opacity-0")} />
                <span className="truncate">{option.label}</span>
              </li>
            ))}
          </ul>
          {open && message ? (
            <p aria-hidden="true" className={cn("px-3 py-2 text-sm text-muted-foreground", options.length > 0 && "border-t")}>
              {message}
            </p>
          ) : null}
        </div>
      </div>
      <p role="status" className="sr-only">
        {announcement}
      </p>
      <PickerErrors errors={errors} errorId={errorId} />
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

/** A picker's selection in a dialog: what was posted (a 400 re-render), else the loader's default. */
export function pickedId(posted: unknown, fallback: string | undefined) {
  return parseId(typeof posted === "string" ? posted : fallback);
}

/**
 * Hidden fields that keep a dialog open, and the list's URL state (`keep`: search, page, order,
 * filters), through a picker's 'Buscar' GET round trip: `edit=ID` for a record, else `dialog=new`.
 */
export function PickerRoundTripFields({ editId, keep }: { editId?: number | null; keep: readonly string[] }) {
  const [searchParams] = useSearchParams();
  return (
    <>
      {editId ? <input type="hidden" name="edit" value={editId} /> : <input type="hidden" name="dialog" value="new" />}
      {keep.map((key) => {
        const value = searchParams.get(key);
        return value ? <input key={key} type="hidden" name={key} value={value} /> : null;
      })}
    </>
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

/** The surgery picker of the dialogs: field `surgeryId`, searching `/api/surgeries` (patient, type, guide …). */
export function SurgeryPicker({ label = "Cirurgia", ...props }: BoundPickerProps & { label?: string }) {
  return (
    <EntityPicker
      name="surgeryId"
      label={label}
      searchParam="surgeryQ"
      endpoint="/api/surgeries"
      resultsKey="surgeries"
      toOption={labelledOptionFromJson}
      {...props}
    />
  );
}
