import { useCallback, useEffect, useRef, useState } from "react";
import { Outlet, useLocation } from "react-router";
import { AccessPending } from "~/components/access-pending";
import { PageHeader } from "~/components/page-header";
import { Sidebar, useNarrowScreen } from "~/components/sidebar";
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
  const drawer = useDrawer();
  if (!user.role) return <AccessPending name={user.name} email={user.email} />;
  return (
    <div className="min-h-screen md:flex">
      <Sidebar
        clinicName={clinicName}
        narrow={drawer.narrow}
        drawerOpen={drawer.open}
        onCloseDrawer={drawer.close}
        closeButtonRef={drawer.closeButtonRef}
      />
      {drawer.open ? (
        <div aria-hidden="true" data-testid="drawer-backdrop" className="fixed inset-0 z-40 bg-black/50 animate-fade-in md:hidden" onClick={drawer.close} />
      ) : null}
      {/* While the drawer is open the page behind it is inert: focus and clicks stay in the menu. */}
      <div className="flex min-w-0 flex-1 flex-col" inert={drawer.open || undefined}>
        <PageHeader user={user} menuOpen={drawer.open} onOpenMenu={drawer.openDrawer} menuButtonRef={drawer.menuButtonRef} />
        <main className="min-w-0 flex-1 p-4 md:p-6">
          <Outlet />
        </main>
      </div>
    </div>
  );
}

/**
 * The narrow-window drawer: opened from the header's menu button; closed by its close button,
 * Escape, the backdrop, following a link, or the window growing wide. Focus moves into the drawer
 * when it opens, and back to the menu button when the person closes it without navigating.
 */
function useDrawer() {
  const narrow = useNarrowScreen();
  const [open, setOpen] = useState(false);
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const closeButtonRef = useRef<HTMLButtonElement>(null);
  const restoreFocus = useRef(false);
  const location = useLocation();

  const close = useCallback(() => {
    restoreFocus.current = true;
    setOpen(false);
  }, []);
  const openDrawer = useCallback(() => setOpen(true), []);

  useEffect(() => {
    if (!narrow) setOpen(false);
  }, [narrow]);

  useEffect(() => {
    setOpen(false);
  }, [location.key]);

  useEffect(() => {
    if (!open) {
      // Runs after the page behind stopped being inert, so the button can take focus.
      if (restoreFocus.current) menuButtonRef.current?.focus();
      restoreFocus.current = false;
      return;
    }
    closeButtonRef.current?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") close();
    };
    document.addEventListener("keydown", onKeyDown);
    const overflow = document.body.style.overflow;
    document.body.style.overflow = "hidden";
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.body.style.overflow = overflow;
    };
  }, [open, close]);

  return { narrow, open: open && narrow, close, openDrawer, menuButtonRef, closeButtonRef };
}
