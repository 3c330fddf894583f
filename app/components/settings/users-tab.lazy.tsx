import { useEffect, useState } from "react";
import { Form } from "react-router";
import { Link } from "~/components/ui/link";
import { DataTable, SearchForm } from "~/components/data-table";
import type { TabProps } from "~/components/settings/shared";
import { Alert, AlertDescription } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Select } from "~/components/ui/select";
import { formatDate } from "~/lib/dates";
import { ROLES, ROLE_LABELS } from "~/lib/permissions";

/** `?tab=usuarios` (administrators): the accounts, their roles and forced password changes. */
export function UsersTab({ loaderData, actionData }: TabProps) {
  const users = loaderData.users!;
  const roleError = actionData?.intent === "set-role" ? actionData.result?.error?.[""]?.[0] : undefined;
  // A refused change leaves the stored role unchanged: re-mount the selects so they show it again.
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (actionData?.intent === "set-role") setAttempt((n) => n + 1);
  }, [actionData]);
  return (
    <Card data-settings-tab="usuarios">
      <CardHeader>
        <CardTitle>Usuários</CardTitle>
        <CardDescription>
          Novas contas entram sem perfil e só acessam o sistema depois que um administrador define o perfil.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <SearchForm placeholder="Buscar por nome ou e-mail..." label="Buscar usuários" className="max-w-sm" />
        {loaderData.resetTarget ? (
          <Alert variant="destructive">
            <AlertDescription>
              <p>
                Exigir nova senha de <strong>{loaderData.resetTarget.email}</strong>? As sessões dessa pessoa serão encerradas e ela
                precisará definir uma nova senha no próximo acesso.
              </p>
              <Form method="post" className="mt-3 flex gap-2">
                <input type="hidden" name="intent" value="force-password-reset" />
                <input type="hidden" name="userId" value={loaderData.resetTarget.id} />
                <Button type="submit" variant="destructive" size="sm">
                  Exigir nova senha
                </Button>
                <Link to="?tab=usuarios" className={buttonVariants({ variant: "outline", size: "sm" })}>
                  Cancelar
                </Link>
              </Form>
            </AlertDescription>
          </Alert>
        ) : null}
        {roleError ? (
          <Alert variant="destructive">
            <AlertDescription>{roleError}</AlertDescription>
          </Alert>
        ) : null}
        <DataTable
          caption="Usuários"
          rows={users.rows}
          total={users.total}
          page={users.page}
          pageSize={users.pageSize}
          getRowKey={(row) => row.id}
          emptyText="Nenhum usuário encontrado"
          // The signed-in user's row is marked '(você)' and offers no reset.
          keepRows={{ currentUserId: loaderData.currentUserId }}
          columns={[
            {
              key: "name",
              header: "Nome",
              className: "font-medium",
              cell: (row) => (
                <>
                  {row.name || "Usuário"}
                  {row.id === loaderData.currentUserId ? <span className="text-muted-foreground"> (você)</span> : null}
                </>
              ),
            },
            { key: "email", header: "E-mail", cell: (row) => row.email },
            { key: "created", header: "Criado em", cell: (row) => formatDate(row.createdAt) },
            {
              key: "role",
              header: "Perfil",
              cell: (row) => (
                <Form method="post" className="flex items-center gap-2">
                  <input type="hidden" name="intent" value="set-role" />
                  <input type="hidden" name="userId" value={row.id} />
                  <Select key={`${row.role}:${attempt}`} name="role" defaultValue={row.role ?? ""} aria-label={`Perfil de ${row.email}`} wrapperClassName="w-40">
                    <option value="">Sem acesso</option>
                    {ROLES.map((role) => (
                      <option key={role} value={role}>
                        {ROLE_LABELS[role]}
                      </option>
                    ))}
                  </Select>
                  <Button type="submit" size="sm" variant="outline">
                    Salvar
                  </Button>
                  {row.role ? null : <Badge variant="warning">Aguardando</Badge>}
                </Form>
              ),
            },
            {
              key: "password",
              header: "Senha",
              cell: (row) =>
                row.mustChangePassword ? (
                  <Badge variant="warning">Troca pendente</Badge>
                ) : row.id === loaderData.currentUserId ? null : (
                  <Link
                    to={`?tab=usuarios&reset=${row.id}`}
                    className="text-sm text-primary underline-offset-4 hover:underline"
                    aria-label={`Exigir nova senha de ${row.email}`}
                  >
                    Exigir nova senha
                  </Link>
                ),
            },
          ]}
        />
      </CardContent>
    </Card>
  );
}
