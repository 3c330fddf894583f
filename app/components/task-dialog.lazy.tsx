import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { FormDialogFooter, UrlDialog } from "~/components/dialog";
import { DefaultSubmitButton, EntityPicker, PatientPicker, PickerRoundTripFields, pickedId } from "~/components/entity-picker";
import { Field, FormErrors, SelectField, TextareaField } from "~/components/form-field";
import { TASK_CATEGORY_OPTIONS as CATEGORY_OPTIONS, TASK_PRIORITY_OPTIONS as PRIORITY_OPTIONS, TASK_STATUS_OPTIONS as STATUS_OPTIONS } from "~/lib/form-options";
import { filterParams } from "~/lib/list-params";
import { TASK_LIST } from "~/lib/lists";
import { labelledOptionFromJson } from "~/lib/picker-options";
import { taskSchema } from "~/validation/task";
import type { Route } from "../routes/+types/tasks";

/** The create/edit dialog of /tasks: title, classification, due date, assignee and the patient and surgery pickers. */

type LoaderData = Route.ComponentProps["loaderData"];


/** Everything that makes up the list's URL state (kept through the dialog's picker round trip). */
const LIST_PARAMS = ["q", "page", "sort", "dir", ...filterParams(TASK_LIST)];

const validateTask = (formData: FormData) => parseWithZod(formData, { schema: taskSchema });

export function TaskDialog({
  task,
  form: data,
  assigneeOptions,
  closeTo,
  lastResult,
}: {
  task: LoaderData["editing"];
  form: NonNullable<LoaderData["form"]>;
  assigneeOptions: LoaderData["assigneeOptions"];
  closeTo: string;
  lastResult: NonNullable<Route.ComponentProps["actionData"]>["result"];
}) {
  const [form, fields] = useForm({
    id: task ? `task-${task.id}` : "task-new",
    lastResult,
    defaultValue: data.defaults,
    constraint: getZodConstraint(taskSchema),
    onValidate: ({ formData }) => validateTask(formData),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });

  return (
    <UrlDialog title={task ? "Editar tarefa" : "Nova tarefa"} closeTo={closeTo} maxWidth="2xl">
      <Form method="post" {...getFormProps(form)} className="space-y-4" preventScrollReset>
        <DefaultSubmitButton />
        <input type="hidden" name="intent" value={task ? "update" : "create"} />
        {task ? <input type="hidden" name="id" value={task.id} /> : null}
        <PickerRoundTripFields editId={task?.id} keep={LIST_PARAMS} />
        <FormErrors errors={form.errors} id={form.errorId} />
        <div className="grid items-start gap-4 sm:grid-cols-2">
          <Field meta={fields.title} label="Título" className="sm:col-span-2" autoComplete="off" placeholder="Ex.: Coletar documentos para pré-autorização" />
          <TextareaField meta={fields.description} label="Descrição" className="sm:col-span-2" rows={3} />
          <SelectField meta={fields.taskCategory} label="Categoria" options={CATEGORY_OPTIONS} />
          <SelectField meta={fields.taskPriority} label="Prioridade" options={PRIORITY_OPTIONS} />
          <SelectField meta={fields.taskStatus} label="Status" options={STATUS_OPTIONS} />
          <Field meta={fields.dueDate} label="Vencimento" type="date" hint="Deixe em branco para uma tarefa sem prazo." />
          <SelectField meta={fields.assigneeId} label="Responsável" options={assigneeOptions} placeholder="Sem responsável" className="sm:col-span-2" />
          <PatientPicker
            options={data.patientOptions}
            defaultValue={pickedId(fields.patientId.initialValue, data.defaults.patientId)}
            searchDefault={data.patientQ}
            searchPlaceholder="Nome ou CPF (opcional)..."
            errors={fields.patientId.errors}
            errorId={fields.patientId.errorId}
          />
          <EntityPicker
            name="surgeryId"
            label="Cirurgia"
            searchParam="surgeryQ"
            endpoint="/api/surgeries"
            resultsKey="surgeries"
            toOption={labelledOptionFromJson}
            options={data.surgeryOptions}
            defaultValue={pickedId(fields.surgeryId.initialValue, data.defaults.surgeryId)}
            searchDefault={data.surgeryQ}
            searchPlaceholder="Paciente, cirurgia ou guia (opcional)..."
            errors={fields.surgeryId.errors}
            errorId={fields.surgeryId.errorId}
          />
        </div>
        <FormDialogFooter closeTo={closeTo} submitLabel={task ? "Salvar alterações" : "Criar tarefa"} />
      </Form>
    </UrlDialog>
  );
}
