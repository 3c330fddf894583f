import { Filter } from "~/components/icons";
import { useId } from "react";
import { Form, useLocation, useSubmit } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Select } from "~/components/ui/select";
import type { KpiFilterOption } from "~/lib/kpi";
import { KPI_PRESETS, KPI_PRESET_LABELS, type ParsedKpiPeriod, describePeriod } from "~/lib/kpi-period";


/**
 * The period (and, where a screen has them, doctor and payer) of a KPI screen as a GET form: all
 * in the URL, 'Aplicar' works without JavaScript; with it, a change applies at once. The dates
 * count when 'Personalizado' is chosen (typing a date chooses it). Bad dates come back with their
 * message beside the field and the default period applied.
 */
export function KpiPeriodFilter({
  period,
  doctors,
  doctorId,
  payers,
  payerId,
}: {
  period: Pick<ParsedKpiPeriod, "preset" | "period" | "previous" | "input" | "errors">;
  /** The doctor select, when the screen filters by doctor. */
  doctors?: readonly KpiFilterOption[] | null;
  doctorId?: number | null;
  /** The payer select, when the screen filters by payer. */
  payers?: readonly KpiFilterOption[] | null;
  payerId?: number | null;
}) {
  const id = useId();
  const { pathname } = useLocation();
  const submit = useSubmit();
  const errors = period.errors ?? {};
  const custom = period.preset === "personalizado";
  const from = custom || errors.de ? period.input.de || period.period.from : period.period.from;
  const to = custom || errors.ate ? period.input.ate || period.period.to : period.period.to;
  const key = `${period.preset}:${period.period.from}:${period.period.to}`;

  return (
    <Form
      method="get"
      action={pathname}
      preventScrollReset
      aria-label="Período e filtros"
      className="space-y-2"
      onChange={(event) => {
        const form = event.currentTarget;
        const target = event.target;
        if (target instanceof HTMLInputElement && target.type === "date") {
          if (!target.value) return; // a half-typed date
          (form.elements.namedItem("periodo") as HTMLSelectElement).value = "personalizado";
        }
        submit(form, { preventScrollReset: true, replace: true });
      }}
    >
      <div className="flex flex-wrap items-end gap-3">
        <Field id={`${id}-periodo`} label="Período" error={errors.periodo}>
          <Select key={key} id={`${id}-periodo`} name="periodo" defaultValue={period.preset} wrapperClassName="w-44" {...describedBy(`${id}-periodo`, errors.periodo)}>
            {KPI_PRESETS.map((preset) => (
              <option key={preset} value={preset}>
                {KPI_PRESET_LABELS[preset]}
              </option>
            ))}
          </Select>
        </Field>
        <Field id={`${id}-de`} label="De (personalizado)" error={errors.de}>
          <Input key={key} id={`${id}-de`} type="date" name="de" defaultValue={from} className="w-40" {...describedBy(`${id}-de`, errors.de)} />
        </Field>
        <Field id={`${id}-ate`} label="Até (personalizado)" error={errors.ate}>
          <Input key={key} id={`${id}-ate`} type="date" name="ate" defaultValue={to} className="w-40" {...describedBy(`${id}-ate`, errors.ate)} />
        </Field>
        {doctors ? <OptionSelect id={`${id}-medico`} name="medico" label="Médico" all="Todos os médicos" options={doctors} value={doctorId} resetKey={key} /> : null}
        {payers ? <OptionSelect id={`${id}-pagador`} name="pagador" label="Pagador" all="Todos os pagadores" options={payers} value={payerId} resetKey={key} /> : null}
        <Button type="submit" variant="outline">
          <Filter aria-hidden />
          Aplicar
        </Button>
      </div>
      <p className="text-sm text-muted-foreground" aria-live="polite">
        {`Período: ${describePeriod(period.period)} · comparado com ${describePeriod(period.previous)}`}
      </p>
    </Form>
  );
}

function OptionSelect(props: { id: string; name: string; label: string; all: string; options: readonly KpiFilterOption[]; value?: number | null; resetKey: string }) {
  const value = props.value ? String(props.value) : "";
  return (
    <Field id={props.id} label={props.label}>
      <Select key={`${props.resetKey}:${value}`} id={props.id} name={props.name} defaultValue={value} wrapperClassName="w-52">
        <option value="">{props.all}</option>
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </Select>
    </Field>
  );
}

function describedBy(fieldId: string, error: string | undefined) {
  return error ? { "aria-invalid": true, "aria-describedby": `${fieldId}-error` } : {};
}

function Field({ id, label, error, children }: { id: string; label: string; error?: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id} className="text-xs text-muted-foreground">
        {label}
      </Label>
      {children}
      {error ? (
        <p id={`${id}-error`} className="text-xs text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
