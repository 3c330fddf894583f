import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { Link } from "~/components/ui/link";
import { useHrefWithParams } from "~/components/data-table";
import { FormDialogFooter, UrlDialog } from "~/components/dialog";
import { Field, FormErrors, SelectField, TextareaField } from "~/components/form-field";
import { Button } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import { Select } from "~/components/ui/select";
import { formatDateTime } from "~/lib/dates";
import { SOP_STATUSES, SOP_STATUS_LABELS, enumOptions, labelFor } from "~/lib/enums";
import { cn } from "~/lib/utils";
import { sopSchema } from "~/validation/sop";
import type { Route } from "../routes/+types/sops";

type LoaderData = Route.ComponentProps["loaderData"];
const STATUS_OPTIONS = enumOptions(SOP_STATUSES, SOP_STATUS_LABELS);

/** The create/edit dialog of /sops (`?dialog=new`, `?edit=ID`). Saving an edit makes a new version. */
export function SopDialog({
  sop,
  closeTo,
  lastResult,
}: {
  sop: LoaderData["editing"];
  closeTo: string;
  lastResult: NonNullable<Route.ComponentProps["actionData"]>["result"];
}) {
  const [form, fields] = useForm({
    id: sop ? `sop-${sop.id}` : "sop-new",
    lastResult,
    defaultValue: sop ? { title: sop.title, category: sop.category, contentMd: sop.contentMd, status: sop.status } : { status: "draft" },
    constraint: getZodConstraint(sopSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: sopSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <UrlDialog
      title={sop ? "Editar SOP" : "Novo SOP"}
      description={sop ? `Versão atual: v${sop.version}. Salvar cria a versão v${sop.version + 1}; as anteriores continuam disponíveis.` : undefined}
      closeTo={closeTo}
      maxWidth="2xl"
    >
      <Form method="post" {...getFormProps(form)} className="space-y-4" preventScrollReset>
        <input type="hidden" name="intent" value={sop ? "update" : "create"} />
        {sop ? <input type="hidden" name="id" value={sop.id} /> : null}
        <FormErrors errors={form.errors} id={form.errorId} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field meta={fields.title} label="Título" className="sm:col-span-2" autoComplete="off" autoFocus />
          <Field meta={fields.category} label="Categoria" />
          <SelectField meta={fields.status} label="Status" options={STATUS_OPTIONS} />
          <TextareaField meta={fields.contentMd} label="Conteúdo (Markdown)" rows={12} className="sm:col-span-2 font-mono" />
        </div>
        <FormDialogFooter closeTo={closeTo} submitLabel={sop ? "Salvar nova versão" : "Criar SOP"} />
      </Form>
    </UrlDialog>
  );
}

/** Reading a SOP (`?view=ID`): the rendered version, the history, and a diff between two versions. */
export function SopViewDialog({ viewing, closeTo }: { viewing: NonNullable<LoaderData["viewing"]>; closeTo: string }) {
  const hrefWith = useHrefWithParams();
  const { shown, versions, diff, current } = viewing;
  const older = versions.find((v) => v.version < shown.version)?.version ?? shown.version;
  return (
    <UrlDialog
      title={shown.title}
      description={`${shown.category} · ${labelFor(SOP_STATUS_LABELS, shown.status)} · v${shown.version}${shown.version === current ? " (atual)" : ` de ${current}`}`}
      closeTo={closeTo}
      maxWidth="3xl"
    >
      {/* Rendered and sanitised on the server (app/models/sop-markdown.server.ts): no raw HTML, scripts or javascript: links. */}
      <article className="prose prose-sm max-w-none dark:prose-invert [&_a]:underline [&_h1]:text-xl [&_h2]:text-lg [&_li]:ml-5 [&_ol]:list-decimal [&_ul]:list-disc" dangerouslySetInnerHTML={{ __html: shown.html }} />

      <section aria-labelledby="sop-versions" className="space-y-2 border-t pt-3">
        <h3 id="sop-versions" className="font-medium">
          Versões
        </h3>
        <ul className="space-y-1 text-sm">
          {versions.map((v) => (
            <li key={v.version} className="flex flex-wrap gap-2">
              <Link to={hrefWith({ version: v.version, from: null, to: null })} preventScrollReset aria-current={v.version === shown.version ? "true" : undefined} className={cn("underline-offset-4 hover:underline", v.version === shown.version && "font-semibold")}>
                v{v.version}
              </Link>
              <span className="text-muted-foreground">
                {formatDateTime(v.createdAt)}
                {v.editedBy ? ` · ${v.editedBy}` : ""} · {labelFor(SOP_STATUS_LABELS, v.status)}
              </span>
            </li>
          ))}
        </ul>
        {versions.length > 1 ? (
          <Form method="get" className="flex flex-wrap items-end gap-2" preventScrollReset>
            <input type="hidden" name="view" value={viewing.id} />
            <div className="space-y-1">
              <Label htmlFor="sop-diff-from">Comparar de</Label>
              <Select id="sop-diff-from" name="from" defaultValue={String(diff?.from ?? older)}>
                {versions.map((v) => (
                  <option key={v.version} value={v.version}>
                    v{v.version}
                  </option>
                ))}
              </Select>
            </div>
            <div className="space-y-1">
              <Label htmlFor="sop-diff-to">até</Label>
              <Select id="sop-diff-to" name="to" defaultValue={String(diff?.to ?? shown.version)}>
                {versions.map((v) => (
                  <option key={v.version} value={v.version}>
                    v{v.version}
                  </option>
                ))}
              </Select>
            </div>
            <Button type="submit" variant="outline">
              Comparar
            </Button>
          </Form>
        ) : null}
      </section>

      {diff ? (
        <section aria-labelledby="sop-diff" className="space-y-2">
          <h3 id="sop-diff" className="font-medium">
            Diferenças de v{diff.from} para v{diff.to}
          </h3>
          <pre className="max-h-80 overflow-auto rounded-md border p-2 text-xs whitespace-pre-wrap">
            {diff.parts.map((part, i) =>
              part.kind === "added" ? (
                <ins key={i} className="bg-success/20 no-underline" aria-label="Adicionado">
                  {part.text}
                </ins>
              ) : part.kind === "removed" ? (
                <del key={i} className="bg-destructive/20" aria-label="Removido">
                  {part.text}
                </del>
              ) : (
                <span key={i}>{part.text}</span>
              ),
            )}
          </pre>
        </section>
      ) : null}
    </UrlDialog>
  );
}
