import type { IconComponent } from "~/components/icons";
import type { ReactNode } from "react";
import { useLocation, useResolvedPath } from "react-router";
import { Link } from "~/components/ui/link";

import { cn } from "~/lib/utils";

export interface TabsNavItem {
  /** Where the tab goes: a path ("/master-data/payers") or a query ("?view=week"). */
  to: string;
  label: ReactNode;
  icon?: IconComponent;
  /**
   * Forces the active state. When omitted, a tab is active if its pathname equals the current one
   * (or, with `end: false`, is a parent of it) and every query parameter in its `to` matches.
   */
  active?: boolean;
  /** Match the pathname exactly (default true). */
  end?: boolean;
}

interface TabsNavProps {
  items: TabsNavItem[];
  /** Accessible name of the tab bar, e.g. "Cadastros". */
  label: string;
  className?: string;
}

/**
 * URL-driven tabs: a row of links, the current one marked `aria-current="page"`.
 * Each tab is a real navigation, so it works without JavaScript and can be bookmarked.
 */
export function TabsNav({ items, label, className }: TabsNavProps) {
  return (
    <nav aria-label={label} className={cn("max-w-full overflow-x-auto", className)}>
      <ul className="inline-flex h-9 w-fit items-center gap-1 rounded-lg bg-muted p-[3px] text-muted-foreground">
        {items.map((item) => (
          <li key={item.to} className="h-full">
            <TabsNavLink item={item} />
          </li>
        ))}
      </ul>
    </nav>
  );
}

function TabsNavLink({ item }: { item: TabsNavItem }) {
  const location = useLocation();
  const resolved = useResolvedPath(item.to);
  const active = item.active ?? isActive(location, resolved, item.end ?? true);
  const Icon = item.icon;

  return (
    <Link
      to={item.to}
      preventScrollReset
      aria-current={active ? "page" : undefined}
      className={cn(
        "inline-flex h-full items-center justify-center gap-1.5 rounded-md border border-transparent px-3 text-sm font-medium whitespace-nowrap transition-[color,box-shadow] outline-none",
        "hover:text-foreground focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50",
        "aria-[current=page]:bg-background aria-[current=page]:text-foreground aria-[current=page]:shadow-sm",
        "dark:aria-[current=page]:border-input dark:aria-[current=page]:bg-input/30",
        "[&_svg]:size-4 [&_svg]:shrink-0",
      )}
    >
      {Icon && <Icon aria-hidden="true" />}
      {item.label}
    </Link>
  );
}

function trimSlash(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
}

function isActive(
  location: { pathname: string; search: string },
  target: { pathname: string; search: string },
  end: boolean,
): boolean {
  const current = trimSlash(location.pathname).toLowerCase();
  const wanted = trimSlash(target.pathname).toLowerCase();
  const pathMatches = end
    ? current === wanted
    : current === wanted || current.startsWith(wanted === "/" ? "/" : `${wanted}/`);
  if (!pathMatches) return false;

  const currentParams = new URLSearchParams(location.search);
  for (const [name, value] of new URLSearchParams(target.search)) {
    if (currentParams.get(name) !== value) return false;
  }
  return true;
}
