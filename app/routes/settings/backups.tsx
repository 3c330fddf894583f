import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { ArrowLeft } from "~/components/icons";
import { Form } from "react-router";
import { Link } from "~/components/ui/link";
import { useSubmittingIntent } from "~/lib/use-busy";
import { CheckboxField, Field, SelectField } from "~/components/form-field";
import { RouteErrorBoundary } from "~/components/route-error";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { requirePermission } from "~/.server/auth";
import { dispatchIntent, intent } from "~/.server/intent-action";
import { formatDateTime, formatTime } from "~/lib/dates";
import { useLazyValidation } from "~/lib/use-lazy-validation";
import { useRevalidateWhile } from "~/lib/use-revalidate-while";
import { useToastEffect } from "~/lib/use-toast-effect";
import { backupDir, backupFiles, backupInProgress, getBackupSettings, startBackup, updateBackupSchedule } from "~/models/backup.server";
import { backupScheduleSchema } from "~/validation/backup";
import type { Route } from "./+types/backups";

export const handle = { title: "Backups", subtitle: "Cópias de segurança do banco de dados e dos documentos" };
export const meta: Route.MetaFunction = () => [{ title: "Backups · Sinapse" }];

export async function loader({ request }: Route.LoaderArgs) {
  await requirePermission(request, "backups", "view");
  const settings = getBackupSettings();
  return {
    settings: {
      dailyEnabled: settings.dailyEnabled,
      dailyHour: settings.dailyHour,
      retention: settings.retention,
      lastRunAt: settings.lastRunAt,
      lastFile: settings.lastFile,
      lastError: settings.lastError,
    },
    directory: backupDir(),
    files: backupFiles(),
    running: backupInProgress(),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requirePermission(request, "backups", "view");
  return dispatchIntent(request, user, {
    back: "/settings/backups",
    intents: {
      "update-schedule": intent({
        permission: ["backups", "edit"],
        schema: backupScheduleSchema,
        run: ({ user, input }) => updateBackupSchedule(user.id, input),
        success: "Configuração de backup salva",
      }),
      "backup-now": intent({
        permission: ["backups", "create"],
        run: ({ user }) => startBackup(user.id),
        success: "Backup iniciado",
        failure: "Falha no backup",
      }),
    },
  });
}

const HOURS = Array.from({ length: 24 }, (_, h) => ({ value: String(h), label: `${String(h).padStart(2, "0")}:00` }));

function sizeText(bytes: number) {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1).replace(".", ",")} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

export default function BackupsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { settings, directory, files, running } = loaderData;
  useToastEffect(actionData?.toast);
  // A backup under way: the page reads its state again until it ends.
  useRevalidateWhile(running !== null, 2000);
  const submitting = useSubmittingIntent();
  const busy = (name: string) => submitting === name;
  const [form, fields] = useForm({
    id: "backup-schedule",
    lastResult: actionData?.intent === "update-schedule" ? actionData.result : undefined,
    defaultValue: {
      dailyEnabled: settings.dailyEnabled ? "on" : "",
      dailyHour: String(settings.dailyHour),
      retention: String(settings.retention),
    },
    ...useLazyValidation(() => import("~/validation/backup"), (m) => m.backupScheduleSchema, { shouldValidate: "onSubmit", shouldRevalidate: "onInput" }),
  });

  return (
    <div className="max-w-4xl space-y-6">
      <Link to="/settings" className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
        <ArrowLeft className="size-4" aria-hidden /> Configurações
      </Link>

      {settings.lastError ? (
        <Alert variant="destructive">
          <AlertDescription>
            O último backup ({formatDateTime(settings.lastRunAt)}) falhou: {settings.lastError}
          </AlertDescription>
        </Alert>
      ) : null}

      <Card>
        <CardHeader>
          <CardTitle>Backup agora</CardTitle>
          <CardDescription>
            Uma cópia verificada do banco (e dos documentos, quando houver) é gravada em <code className="break-all">{directory}</code>.
            Copie essa pasta para fora deste computador regularmente.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-3">
          <Form method="post">
            <input type="hidden" name="intent" value="backup-now" />
            <Button type="submit" disabled={running !== null || busy("backup-now")}>
              {running ? "Backup em andamento..." : busy("backup-now") ? "Iniciando backup..." : "Fazer backup agora"}
            </Button>
          </Form>
          <div role="status" className="text-sm text-muted-foreground">
            {running ? (
              <p>
                Backup em andamento desde {formatTime(running.startedAt)}. O sistema continua funcionando normalmente.{" "}
                <Link to="/settings/backups" className="underline underline-offset-4" data-no-js-only>
                  Atualizar
                </Link>
              </p>
            ) : settings.lastRunAt && !settings.lastError && settings.lastFile ? (
              <p>
                Último backup concluído e verificado em {formatDateTime(settings.lastRunAt)}: <span className="break-all font-mono text-xs">{settings.lastFile}</span>
              </p>
            ) : null}
          </div>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Backup diário</CardTitle>
          <CardDescription>O servidor faz um backup por dia, no horário escolhido, e mantém os mais recentes.</CardDescription>
        </CardHeader>
        <CardContent>
          <Form method="post" {...getFormProps(form)} className="max-w-md space-y-4">
            <input type="hidden" name="intent" value="update-schedule" />
            <CheckboxField meta={fields.dailyEnabled} label="Fazer backup diário automaticamente" />
            <SelectField meta={fields.dailyHour} label="Horário (Brasília)" options={HOURS} />
            <Field meta={fields.retention} label="Quantidade de backups mantidos" type="number" min={1} max={365} step={1} />
            <Button type="submit" variant="outline" disabled={busy("update-schedule")}>
              {busy("update-schedule") ? "Salvando..." : "Salvar configuração"}
            </Button>
          </Form>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Backups guardados</CardTitle>
          <CardDescription>
            {settings.lastRunAt ? `Último backup: ${formatDateTime(settings.lastRunAt)}.` : "Nenhum backup feito por esta tela ainda."} Para
            restaurar, pare o servidor e rode <code>npm run restore -- ARQUIVO</code>.
          </CardDescription>
        </CardHeader>
        <CardContent>
          {files.length === 0 ? (
            <p className="text-sm text-muted-foreground">Nenhum backup nesta pasta.</p>
          ) : (
            <Table>
              <caption className="sr-only">Backups guardados</caption>
              <TableHeader>
                <TableRow>
                  <TableHead>Arquivo</TableHead>
                  <TableHead>Data</TableHead>
                  <TableHead>Tamanho</TableHead>
                  <TableHead>Documentos</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {files.map((file) => (
                  <TableRow key={file.name}>
                    <TableCell className="break-all font-mono text-xs">{file.name}</TableCell>
                    <TableCell className="whitespace-nowrap">{formatDateTime(file.createdAt)}</TableCell>
                    <TableCell className="whitespace-nowrap">{sizeText(file.size)}</TableCell>
                    <TableCell>{file.documents ? "Sim" : "Não"}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
