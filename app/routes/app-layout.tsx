import { Outlet } from "react-router";
import { AccessPending } from "~/components/access-pending";
import { PageHeader } from "~/components/page-header";
import { Sidebar } from "~/components/sidebar";
import { requireUser } from "~/.server/auth";
import { getClinicSettings } from "~/models/settings.server";
import type { Route } from "./+types/app-layout";

/**
 * The signed-in shell: sidebar, header and the page. An account still waiting for a role sees
 * only the waiting page; the page's own loader refuses it with 403 at the same time.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  return { user, clinicName: getClinicSettings().clinicName };
}

export default function AppLayout({ loaderData }: Route.ComponentProps) {
  const { user, clinicName } = loaderData;
  if (!user.role) return <AccessPending name={user.name} email={user.email} />;
  return (
    <div className="flex min-h-screen">
      <Sidebar clinicName={clinicName} />
      <div className="flex min-w-0 flex-1 flex-col">
        <PageHeader user={user} />
        <main className="flex-1 p-6">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
