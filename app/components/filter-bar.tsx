import { useId } from "react";
import { Form, useLocation, useSubmit } from "react-router";
import { Filter, X } from "~/components/icons";
import { Button, ButtonLink } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Select } from "~/components/ui/select";
import { CachedElement, cacheKeyOf } from "~/lib/markup-cache";

export interface FilterField {
  /** The query-string parameter (the list declaration's `param`). */
  name: string;
  label: string;
  /** The 'no filter' choice, e.g. 'Todos os status'. */
  all: string;
  options: readonly { value: string; label: string }[];
  /** The applied value, from the loader. */
  value: string | number | null;
  width?: string;
}

/** A date bound of a range filter ('Vencimento de' … 'até'): `<input type="date">`, empty for none. */
export interface DateFilterField {
  type: "date";
  name: string;
  label: string;
  /** The applied 'YYYY-MM-DD', from the loader. */
  value: string | null;
}

/** The 'De' … 'Até' pair of a report filtered by a date range (`from`, `to` in the URL). */
export function dateRangeFields(range: { from: string | null; to: string | null }): DateFilterField[] {
  return [
    { type: "date", name: "from", label: "De", value: range.from },
    { type: "date", name: "to", label: "Até", value: range.to },
  ];
}

/**
 * A list's declared filters as a GET form: the filters live in the URL, 'Filtrar' applies them
 * without JavaScript, and with it a change applies at once. Search and order are kept; the page
 * restarts at 1. 'Limpar filtros' appears while any filter is applied.
 */
export function FilterBar({
  fields,
  keep,
  label = "Filtros",
}: {
  fields: Array<FilterField | DateFilterField>;
  /** Search and order to carry along (only the non-default ones). */
  keep: Record<string, string | null | undefined>;
  label?: string;
}) {
  const { pathname } = useLocation();
  const submit = useSubmit();
  const id = useId();

  return (
    <Form
      method="get"
      action={pathname}
      preventScrollReset
      aria-label={label}
      className="flex flex-wrap items-end gap-3"
      onChange={(event) => submit(event.currentTarget, { preventScrollReset: true, replace: true })}
    >
      {/* The fields' markup, kept per path and props (ADR 0025); `contents` leaves the form's layout as it is. */}
      <CachedElement as="div" id={id} className="contents" cacheKey={filterBarKey(pathname, fields, keep)}>
        {() => {
          // Worked out only when the markup is not kept.
          const kept = Object.entries(keep).filter((entry): entry is [string, string] => !!entry[1]);
          const active = fields.some((field) => field.value !== null && field.value !== "");
          const clearTo = kept.length ? `${pathname}?${new URLSearchParams(kept)}` : pathname;
          return (
            <>
              {kept.map(([name, value]) => (
                <input key={name} type="hidden" name={name} value={value} />
              ))}
              {fields.map((field) => {
                const value = field.value === null ? "" : String(field.value);
                if ("type" in field) {
                  return (
                    <div key={field.name} className="grid gap-1.5">
                      <Label htmlFor={`filter-${field.name}`} className="text-xs text-muted-foreground">
                        {field.label}
                      </Label>
                      <Input key={`${field.name}:${value}`} id={`filter-${field.name}`} type="date" name={field.name} defaultValue={value} className="w-40" />
                    </div>
                  );
                }
                return (
                  <div key={field.name} className="grid gap-1.5">
                    <Label htmlFor={`filter-${field.name}`} className="text-xs text-muted-foreground">
                      {field.label}
                    </Label>
                    <Select
                      // Re-mount when the URL changes (Back, 'Limpar'), so the select shows the applied filter.
                      key={`${field.name}:${value}`}
                      id={`filter-${field.name}`}
                      name={field.name}
                      defaultValue={field.options.some((o) => o.value === value) ? value : ""}
                      wrapperClassName={field.width ?? "w-44"}
                    >
                      <option value="">{field.all}</option>
                      {field.options.map((option) => (
                        <option key={option.value} value={option.value}>
                          {option.label}
                        </option>
                      ))}
                    </Select>
                  </div>
                );
              })}
              <Button type="submit" variant="outline">
                <Filter aria-hidden />
                Filtrar
              </Button>
              {active ? (
                <ButtonLink to={clearTo} variant="ghost" preventScrollReset>
                  <X aria-hidden />
                  Limpar filtros
                </ButtonLink>
              ) : null}
            </>
          );
        }}
      </CachedElement>
    </Form>
  );
}

/** The search and order a filter form carries along: only what differs from the list's defaults. */
export function keptListParams(
  params: { q: string; sort: string; dir: string },
  defaults: { defaultSort: string; defaultDir: string },
): Record<string, string | null> {
  const custom = params.sort !== defaults.defaultSort || params.dir !== defaults.defaultDir;
  return { q: params.q || null, sort: custom ? params.sort : null, dir: custom ? params.dir : null };
}

/**
 * The kept markup's key: the fields without their options, then each field's options by content id.
 * Options are kept arrays (module constants, or `optionsOf` rows kept until a write), so their JSON
 * (37 doctors are 2–3 KB) is not written again on every request.
 */
function filterBarKey(pathname: string, fields: Array<FilterField | DateFilterField>, keep: Record<string, string | null | undefined>) {
  const options = fields.flatMap((field) => ("options" in field ? [field.options] : []));
  return cacheKeyOf(["filter-bar", pathname, fields.map((field) => ("options" in field ? { ...field, options: null } : field)), keep], ...options);
}
