import { PanelLeftClose, PanelLeftOpen, X } from "~/components/icons";
import { type RefObject, useEffect, useState } from "react";
import { useLocation } from "react-router";
import { Link } from "~/components/ui/link";
import { maskIconClass } from "~/components/icons";
import { CachedElement } from "~/lib/markup-cache";
import { cn } from "~/lib/utils";
import {
  NAVIGATION,
  type NavGroup,
  type NavIcon as NavIconName,
  type NavItem,
  type NavSubgroup,
  activeTargets,
  groupsForPath,
  isActiveTarget,
  isSubgroup,
} from "~/lib/navigation";

export const EXPANDED_GROUPS_KEY = "sidebar-expanded-groups";
const COLLAPSED_KEY = "sidebar-collapsed";

function readStoredGroups(): string[] | null {
  try {
    const raw = localStorage.getItem(EXPANDED_GROUPS_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === "string") : null;
  } catch {
    return null;
  }
}

function store(key: string, value: string) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Storage unavailable (private mode): the preference lasts for this page only.
  }
}

/** Below Tailwind's `md` breakpoint the sidebar is a drawer; keep in step with the `md:` classes. */
const NARROW_QUERY = "(max-width: 767px)";

/**
 * True on a narrow (phone-sized) window, following the window as it is resized. False on the
 * server and before hydration; the CSS alone already lays the page out for either width.
 */
export function useNarrowScreen(): boolean {
  const [narrow, setNarrow] = useState(false);
  useEffect(() => {
    const query = window.matchMedia(NARROW_QUERY);
    const update = () => setNarrow(query.matches);
    update();
    query.addEventListener("change", update);
    return () => query.removeEventListener("change", update);
  }, []);
  return narrow;
}

export interface SidebarProps {
  clinicName: string;
  /** The window is narrow: the sidebar is an off-canvas drawer with labels. */
  narrow: boolean;
  /** The drawer is open (narrow windows only). */
  drawerOpen: boolean;
  onCloseDrawer: () => void;
  closeButtonRef?: RefObject<HTMLButtonElement | null>;
}

/**
 * Groups are <details> elements, so they open and close without JavaScript; with it, the set of
 * expanded group ids is remembered in localStorage under `sidebar-expanded-groups`.
 *
 * Wide windows: a sticky column, collapsible to icons (remembered under `sidebar-collapsed`).
 * Narrow windows: an off-canvas drawer opened from the header's menu button; without JavaScript
 * (no `js` class on <html>) it is a plain block above the page instead (see app.css).
 */
export function Sidebar({ clinicName, narrow, drawerOpen, onCloseDrawer, closeButtonRef }: SidebarProps) {
  const { pathname } = useLocation();
  const [expanded, setExpanded] = useState<string[]>(() => groupsForPath(pathname));
  const [collapsedPreference, setCollapsed] = useState(false);
  // The drawer always shows labels; icons only is a choice for wide windows.
  const collapsed = collapsedPreference && !narrow;

  useEffect(() => {
    const stored = readStoredGroups();
    if (stored) setExpanded(stored);
    setCollapsed(localStorage.getItem(COLLAPSED_KEY) === "true");
  }, []);

  function toggleGroup(id: string, open: boolean) {
    setExpanded((current) => {
      if (open === current.includes(id)) return current;
      const next = open ? [...current, id] : current.filter((g) => g !== id);
      store(EXPANDED_GROUPS_KEY, JSON.stringify(next));
      return next;
    });
  }

  function toggleCollapsed() {
    setCollapsed((c) => {
      store(COLLAPSED_KEY, String(!c));
      return !c;
    });
  }

  return (
    <CachedElement
      as="aside"
      id="app-sidebar"
      // Everything the markup below depends on. On the server the sidebar is always wide, expanded
      // and closed as a drawer; pages of the same section and clinic name share their sidebar.
      cacheKey={JSON.stringify(["sidebar", clinicName, collapsed, drawerOpen, expanded, activeTargets(pathname)])}
      data-sidebar
      data-collapsed={collapsed}
      data-drawer-open={drawerOpen}
      className={cn(
        "flex shrink-0 flex-col border-r border-sidebar-border bg-sidebar text-sidebar-foreground",
        // Wide: a sticky column of 256 px, or 64 px of icons.
        "md:sticky md:top-0 md:h-screen md:transition-[width] md:duration-200",
        collapsed ? "md:w-16" : "md:w-64",
        // Narrow: a drawer over the page, hidden (and out of the tab order) until opened.
        // Visibility switches at once on opening (so focus can move in) and after the slide on closing.
        "max-md:fixed max-md:inset-y-0 max-md:left-0 max-md:z-50 max-md:w-72 max-md:max-w-[85vw] max-md:shadow-xl max-md:duration-200",
        drawerOpen ? "max-md:translate-x-0 max-md:transition-[translate]" : "max-md:invisible max-md:-translate-x-full max-md:transition-[translate,visibility]",
      )}
      aria-label="Menu principal"
    >
      <div className={cn("flex h-16 shrink-0 items-center border-b border-sidebar-border px-3", collapsed ? "justify-center" : "justify-between")}>
        {collapsed ? null : (
          <div className="flex min-w-0 items-center gap-2">
            {/* Low priority: no preload hint in the page's head (the tab's icon already fetches it). */}
            <img src="/favicon.svg" alt="" className="size-8 shrink-0" width={32} height={32} fetchPriority="low" />
            <div className="min-w-0">
              <p className="truncate text-base font-semibold text-sidebar-primary">Sinapse</p>
              <p className="truncate text-xs text-muted-foreground">{clinicName}</p>
            </div>
          </div>
        )}
        <button
          type="button"
          onClick={toggleCollapsed}
          className="rounded-md p-2 text-muted-foreground hover:bg-sidebar-accent hover:text-sidebar-accent-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none max-md:hidden"
          aria-label={collapsed ? "Expandir menu" : "Recolher menu"}
          title={collapsed ? "Expandir menu" : "Recolher menu"}
        >
          {collapsed ? <PanelLeftOpen className="size-5" /> : <PanelLeftClose className="size-5" />}
        </button>
        <button
          ref={closeButtonRef}
          type="button"
          onClick={onCloseDrawer}
          data-js-only
          className="rounded-md p-2 text-muted-foreground hover:bg-sidebar-accent hover:text-sidebar-accent-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none md:hidden"
          aria-label="Fechar menu"
          title="Fechar menu"
        >
          <X className="size-5" aria-hidden />
        </button>
      </div>
      <nav
        className="flex-1 space-y-1 overflow-y-auto p-2 text-sm"
        // Following a link closes the drawer, also when the link is the current page.
        onClick={(event) => {
          if (drawerOpen && event.target instanceof Element && event.target.closest("a")) onCloseDrawer();
        }}
      >
        {NAVIGATION.map((section, index) =>
          section.kind === "group" ? (
            <SidebarGroup
              key={section.group.id}
              group={section.group}
              collapsed={collapsed}
              expanded={expanded}
              onToggle={toggleGroup}
            />
          ) : (
            <ul key={`items-${index}`} className="space-y-0.5">
              {section.items.map((item) => (
                <li key={item.to}>
                  <SidebarLink item={item} collapsed={collapsed} />
                </li>
              ))}
            </ul>
          ),
        )}
      </nav>
    </CachedElement>
  );
}

function SidebarLink({ item, collapsed, nested = false }: { item: NavItem; collapsed: boolean; nested?: boolean }) {
  const active = isActiveTarget(useLocation().pathname, item.to);
  let className = `nav-link ${maskIconClass(item.icon)}`;
  if (collapsed) className += " nav-link-collapsed";
  else if (nested) className += " nav-link-nested";
  if (active) className += " nav-link-active";
  return (
    <Link
      to={item.to}
      prefetch="intent"
      title={collapsed ? item.label : undefined}
      aria-label={collapsed ? item.label : undefined}
      aria-current={active ? "page" : undefined}
      className={className}
    >
      {collapsed ? null : item.label}
    </Link>
  );
}

function Collapsible({
  id,
  label,
  icon,
  collapsed,
  expanded,
  onToggle,
  children,
}: {
  id: string;
  label: string;
  icon: NavIconName;
  collapsed: boolean;
  expanded: string[];
  onToggle: (id: string, open: boolean) => void;
  children: React.ReactNode;
}) {
  if (collapsed) {
    // Icons only: the group's entries are listed flat, separated by a rule.
    return <div className="border-t border-sidebar-border pt-1 first:border-t-0">{children}</div>;
  }
  return (
    <details
      data-group-id={id}
      open={expanded.includes(id)}
      onToggle={(e) => onToggle(id, e.currentTarget.open)}
    >
      {/* The chevron is drawn by the CSS (.nav-group::after), turned when the group is open. */}
      <summary className={`nav-group ${maskIconClass(icon)}`}>
        <span className="nav-group-label">{label}</span>
      </summary>
      {children}
    </details>
  );
}

function SidebarGroup({
  group,
  collapsed,
  expanded,
  onToggle,
}: {
  group: NavGroup;
  collapsed: boolean;
  expanded: string[];
  onToggle: (id: string, open: boolean) => void;
}) {
  return (
    <Collapsible id={group.id} label={group.label} icon={group.icon} collapsed={collapsed} expanded={expanded} onToggle={onToggle}>
      <ul className={collapsed ? "space-y-0.5" : "mt-0.5 space-y-0.5"}>
        {group.entries.map((entry) =>
          isSubgroup(entry) ? (
            <li key={entry.id}>
              <SidebarSubgroup subgroup={entry} collapsed={collapsed} expanded={expanded} onToggle={onToggle} />
            </li>
          ) : (
            <li key={`${group.id}-${entry.to}`}>
              <SidebarLink item={entry} collapsed={collapsed} nested />
            </li>
          ),
        )}
      </ul>
    </Collapsible>
  );
}

function SidebarSubgroup({
  subgroup,
  collapsed,
  expanded,
  onToggle,
}: {
  subgroup: NavSubgroup;
  collapsed: boolean;
  expanded: string[];
  onToggle: (id: string, open: boolean) => void;
}) {
  return (
    <div className={collapsed ? undefined : "pl-6"}>
      <Collapsible id={subgroup.id} label={subgroup.label} icon={subgroup.icon} collapsed={collapsed} expanded={expanded} onToggle={onToggle}>
        <ul className={collapsed ? "space-y-0.5" : "mt-0.5 space-y-0.5"}>
          {subgroup.items.map((item) => (
            <li key={item.to}>
              <SidebarLink item={item} collapsed={collapsed} nested />
            </li>
          ))}
        </ul>
      </Collapsible>
    </div>
  );
}
