import { LogOut, Menu, Moon, Search, Settings, Sun } from "~/components/icons";
import type { RefObject } from "react";
import { Form, type UIMatch, useMatches } from "react-router";
import { Link } from "~/components/ui/link";
import { ROLE_LABELS, type Role } from "~/lib/permissions";
import { displayName, initialsOf, isPageHandle } from "~/lib/page";
import { CachedElement } from "~/lib/markup-cache";
import { type Theme, setTheme, useTheme } from "~/lib/theme";

/**
 * The title of the deepest page with a `handle`; a loader may return `pageTitle` to name a page
 * that one module serves under several titles (the 'em construção' pages).
 */
function pageOf(matches: UIMatch[]) {
  const match = [...matches].reverse().find((m) => isPageHandle(m.handle));
  if (!match || !isPageHandle(match.handle)) return null;
  const data = match.data as { pageTitle?: unknown } | undefined;
  return typeof data?.pageTitle === "string" ? { ...match.handle, title: data.pageTitle } : match.handle;
}

export interface PageHeaderProps {
  user: { name: string; email: string; role: Role | null };
  /** The narrow-window drawer is open (the menu button reports it as expanded). */
  menuOpen?: boolean;
  onOpenMenu?: () => void;
  menuButtonRef?: RefObject<HTMLButtonElement | null>;
}

export function PageHeader({ user, menuOpen = false, onOpenMenu, menuButtonRef }: PageHeaderProps) {
  const page = pageOf(useMatches());
  const theme = useTheme();

  return (
    <CachedElement
      as="header"
      id="app-header"
      // Everything the markup below depends on (docs/decisions/0025-cached-shell-markup.md).
      cacheKey={JSON.stringify(["header", user.name, user.email, user.role, page?.title, page?.subtitle, menuOpen, theme])}
      className="sticky top-0 z-30 flex h-16 items-center gap-2 border-b bg-background/95 px-3 backdrop-blur sm:gap-4 md:px-6"
    >
      {/* Narrow windows: opens the sidebar drawer. Without JavaScript the sidebar is on the page instead. */}
      <button
        ref={menuButtonRef}
        type="button"
        onClick={onOpenMenu}
        data-js-only
        aria-label="Abrir menu"
        aria-controls="app-sidebar"
        aria-expanded={menuOpen}
        title="Menu"
        className="-ml-1 shrink-0 rounded-md p-2 text-muted-foreground hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none md:hidden"
      >
        <Menu className="size-5" aria-hidden />
      </button>
      <div className="min-w-0 flex-1">
        {page ? (
          <>
            <h1 className="truncate text-lg leading-tight font-semibold">{page.title}</h1>
            {page.subtitle ? <p className="truncate text-sm text-muted-foreground">{page.subtitle}</p> : null}
          </>
        ) : null}
      </div>
      {/* The global search finds patients: the record staff look for most often. */}
      <Form method="get" action="/patients" role="search" aria-label="Busca rápida de pacientes" className="relative hidden md:block">
        <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
        <input
          type="search"
          name="q"
          placeholder="Buscar..."
          aria-label="Busca rápida de pacientes"
          title="Buscar pacientes por nome, CPF ou e-mail"
          className="h-9 w-48 rounded-md lg:w-64 border border-input bg-transparent pr-3 pl-9 text-sm outline-none focus-visible:ring-2 focus-visible:ring-ring"
        />
      </Form>
      <ThemeToggle theme={theme} />
      <UserMenu user={user} />
    </CachedElement>
  );
}

function ThemeToggle({ theme }: { theme: Theme }) {
  const next = theme === "dark" ? "light" : "dark";
  return (
    <button
      type="button"
      onClick={() => setTheme(next)}
      className="rounded-md p-2 text-muted-foreground hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      aria-label={next === "dark" ? "Ativar tema escuro" : "Ativar tema claro"}
      title={next === "dark" ? "Tema escuro" : "Tema claro"}
      data-testid="theme-toggle"
    >
      <Sun className="hidden size-5 dark:block" aria-hidden />
      <Moon className="size-5 dark:hidden" aria-hidden />
    </button>
  );
}

/** A <details> menu: opens without JavaScript; 'Sair' is a POST so a link prefetch cannot log anyone out. */
function UserMenu({ user }: { user: { name: string; email: string; role: Role | null } }) {
  return (
    <details className="relative" data-testid="user-menu">
      <summary
        className="flex cursor-pointer list-none items-center gap-2 rounded-full focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none [&::-webkit-details-marker]:hidden"
        aria-label="Menu do usuário"
      >
        <span className="flex size-9 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground">
          {initialsOf(user.name)}
        </span>
      </summary>
      <div className="absolute right-0 z-40 mt-2 w-60 rounded-md border bg-popover p-1 text-popover-foreground shadow-lg">
        <div className="px-3 py-2">
          <p className="truncate text-sm font-medium">{displayName(user.name)}</p>
          <p className="truncate text-xs text-muted-foreground">{user.email}</p>
          {user.role ? <p className="mt-1 text-xs text-muted-foreground">{ROLE_LABELS[user.role]}</p> : null}
        </div>
        <div className="my-1 h-px bg-border" />
        <Link to="/settings" className="flex items-center gap-2 rounded-sm px-3 py-2 text-sm hover:bg-accent hover:text-accent-foreground">
          <Settings className="size-4" aria-hidden />
          Configurações
        </Link>
        <Form method="post" action="/logout">
          <button type="submit" className="flex w-full items-center gap-2 rounded-sm px-3 py-2 text-left text-sm hover:bg-accent hover:text-accent-foreground">
            <LogOut className="size-4" aria-hidden />
            Sair
          </button>
        </Form>
      </div>
    </details>
  );
}
