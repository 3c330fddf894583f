import {
  getInputProps,
  getSelectProps,
  getTextareaProps,
  type FieldMetadata,
} from "@conform-to/react";
import type { ComponentProps, ReactNode } from "react";

import { Alert, AlertDescription } from "~/components/ui/alert";
import { Checkbox } from "~/components/ui/checkbox";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { Select } from "~/components/ui/select";
import { Textarea } from "~/components/ui/textarea";
import { cn } from "~/lib/utils";

/** A field of a Conform form (`fields.name` from `useForm`), whatever its value type. */
type Meta<Schema> = FieldMetadata<Schema, Record<string, unknown>, string[]>;

type InputType =
  | "text"
  | "email"
  | "tel"
  | "url"
  | "password"
  | "search"
  | "number"
  | "date"
  | "time"
  | "datetime-local"
  | "month"
  | "week"
  | "color"
  | "range"
  | "file";

/** Props the wrappers take from Conform, so callers cannot override them by mistake. */
type ManagedProps = "id" | "name" | "form" | "type" | "aria-invalid" | "aria-describedby";

interface FieldShellProps {
  label: ReactNode;
  /** Help text under the control (linked with aria-describedby). */
  hint?: ReactNode;
  /** Classes for the wrapper (label + control + messages), e.g. "sm:col-span-2". */
  className?: string;
}

/**
 * A field's rows keep their height and stack from the top: when a field beside it in a row shows
 * an error and the row grows, this field's label and control stay where they are.
 */
const FIELD_CLASSES = "grid content-start gap-2";

function FieldErrors({ id, errors }: { id: string; errors: string[] | undefined }) {
  if (!errors?.length) return null;
  return (
    <p id={id} role="alert" className="text-sm text-destructive">
      {errors.join(" ")}
    </p>
  );
}

function FieldHint({ id, hint }: { id: string; hint: ReactNode }) {
  if (!hint) return null;
  return (
    <p id={id} className="text-sm text-muted-foreground">
      {hint}
    </p>
  );
}

function RequiredMark({ required }: { required: boolean | undefined }) {
  return required ? (
    <span aria-hidden="true" className="text-destructive">
      *
    </span>
  ) : null;
}

export type FieldProps<Schema> = FieldShellProps &
  Omit<ComponentProps<"input">, ManagedProps> & {
    meta: Meta<Schema>;
    /** Input type (default "text"); use CheckboxField for checkboxes. */
    type?: InputType;
  };

/** Label, input, hint and error of one Conform field. Extra props go to the `<input>`. */
export function Field<Schema>({ meta, label, hint, className, type = "text", ...inputProps }: FieldProps<Schema>) {
  const { key: _key, ...controlProps } = getInputProps(meta, {
    type,
    ariaDescribedBy: hint ? meta.descriptionId : undefined,
  });
  return (
    <div className={cn(FIELD_CLASSES, className)}>
      <Label htmlFor={meta.id}>
        {label}
        <RequiredMark required={controlProps.required} />
      </Label>
      <Input key={meta.key} {...controlProps} {...inputProps} />
      <FieldHint id={meta.descriptionId} hint={hint} />
      <FieldErrors id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

export type TextareaFieldProps<Schema> = FieldShellProps &
  Omit<ComponentProps<"textarea">, ManagedProps> & { meta: Meta<Schema> };

export function TextareaField<Schema>({ meta, label, hint, className, ...textareaProps }: TextareaFieldProps<Schema>) {
  const { key: _key, ...controlProps } = getTextareaProps(meta, {
    ariaDescribedBy: hint ? meta.descriptionId : undefined,
  });
  return (
    <div className={cn(FIELD_CLASSES, className)}>
      <Label htmlFor={meta.id}>
        {label}
        <RequiredMark required={controlProps.required} />
      </Label>
      <Textarea key={meta.key} {...controlProps} {...textareaProps} />
      <FieldHint id={meta.descriptionId} hint={hint} />
      <FieldErrors id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

export interface SelectOption {
  value: string;
  label: string;
  disabled?: boolean;
}

export type SelectFieldProps<Schema> = FieldShellProps &
  Omit<ComponentProps<"select">, ManagedProps | "children"> & {
    meta: Meta<Schema>;
    options: readonly SelectOption[];
    /** First option with an empty value, e.g. "Selecione...". */
    placeholder?: string;
  };

/** A native select (works without JavaScript) bound to a Conform field. */
export function SelectField<Schema>({
  meta,
  label,
  hint,
  className,
  options,
  placeholder,
  ...selectProps
}: SelectFieldProps<Schema>) {
  const { key: _key, ...controlProps } = getSelectProps(meta, {
    ariaDescribedBy: hint ? meta.descriptionId : undefined,
  });
  return (
    <div className={cn(FIELD_CLASSES, className)}>
      <Label htmlFor={meta.id}>
        {label}
        <RequiredMark required={controlProps.required} />
      </Label>
      <Select key={meta.key} {...controlProps} {...selectProps}>
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value} disabled={option.disabled}>
            {option.label}
          </option>
        ))}
      </Select>
      <FieldHint id={meta.descriptionId} hint={hint} />
      <FieldErrors id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

export type CheckboxFieldProps<Schema> = FieldShellProps &
  Omit<ComponentProps<"input">, ManagedProps | "value"> & {
    meta: Meta<Schema>;
    /** Value posted when checked (default "on", which Conform's zod parsing reads as `true`). */
    value?: string;
  };

/** A native checkbox with its label at the right, bound to a Conform field. */
export function CheckboxField<Schema>({
  meta,
  label,
  hint,
  className,
  value,
  ...inputProps
}: CheckboxFieldProps<Schema>) {
  const { key: _key, type: _type, ...controlProps } = getInputProps(meta, {
    type: "checkbox",
    value: value ?? "on",
    ariaDescribedBy: hint ? meta.descriptionId : undefined,
  });
  return (
    <div className={cn(FIELD_CLASSES, className)}>
      <div className="flex items-center gap-2">
        <Checkbox key={meta.key} {...controlProps} {...inputProps} />
        <Label htmlFor={meta.id} className="font-normal">
          {label}
        </Label>
      </div>
      <FieldHint id={meta.descriptionId} hint={hint} />
      <FieldErrors id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

export interface FormErrorsProps {
  /** Form-level errors: `form.errors` from `useForm`. */
  errors?: string[] | null;
  /** `form.errorId`, so the form's aria-describedby points here. */
  id?: string;
  className?: string;
}

/** Errors that belong to the whole form (e.g. "CPF já cadastrado"), in a destructive alert. */
export function FormErrors({ errors, id, className }: FormErrorsProps) {
  if (!errors?.length) return null;
  return (
    <Alert id={id} variant="destructive" className={className}>
      <AlertDescription>
        {errors.length === 1 ? (
          <p>{errors[0]}</p>
        ) : (
          <ul className="list-inside list-disc">
            {errors.map((error) => (
              <li key={error}>{error}</li>
            ))}
          </ul>
        )}
      </AlertDescription>
    </Alert>
  );
}
