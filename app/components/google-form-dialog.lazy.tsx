import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { SubmissionResult } from "@conform-to/react";
import { Form } from "react-router";
import { FormDialogFooter, UrlDialog } from "~/components/dialog";
import { Field, FormErrors } from "~/components/form-field";
import { googleFormSchema } from "~/validation/google";

/** 'Create Form' (/google-forms?dialog=new): the title; the form is made in Google Forms, questions are added there. */
export function GoogleFormDialog({ closeTo, lastResult }: { closeTo: string; lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useForm({
    id: "google-form-new",
    lastResult,
    constraint: getZodConstraint(googleFormSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: googleFormSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  return (
    <UrlDialog title="Create Form" description="O formulário é criado no Google Forms da clínica; as perguntas são adicionadas lá." closeTo={closeTo} maxWidth="md">
      <Form method="post" {...getFormProps(form)} className="space-y-4" preventScrollReset>
        <input type="hidden" name="intent" value="create" />
        <FormErrors errors={form.errors} id={form.errorId} />
        <Field meta={fields.title} label="Título" autoComplete="off" autoFocus />
        <FormDialogFooter closeTo={closeTo} submitLabel="Criar formulário" />
      </Form>
    </UrlDialog>
  );
}
