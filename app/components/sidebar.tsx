import { ChevronRight, PanelLeftClose, PanelLeftOpen } from "lucide-react";
import { useEffect, useState } from "react";
import { NavLink, useLocation } from "react-router";
import { cn } from "~/lib/utils";
import {
  NAVIGATION,
  type NavGroup,
  type NavItem,
  type NavSubgroup,
  groupsForPath,
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

/**
 * Groups are <details> elements, so they open and close without JavaScript; with it, the set of
 * expanded group ids is remembered in localStorage under `sidebar-expanded-groups`.
 */
export function Sidebar({ clinicName }: { clinicName: string }) {
  const { pathname } = useLocation();
  const [expanded, setExpanded] = useState<string[]>(() => groupsForPath(pathname));
  const [collapsed, setCollapsed] = useState(false);

  useEffect(() => {
    const stored = readStoredGroups();
    if (stored) setExpanded(stored);
    const storedCollapsed = localStorage.getItem(COLLAPSED_KEY);
    // On a phone-sized screen, start with icons only unless the person chose otherwise.
    setCollapsed(storedCollapsed === null ? window.matchMedia("(max-width: 767px)").matches : storedCollapsed === "true");
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
    <aside
      data-collapsed={collapsed}
      className={cn(
        "sticky top-0 flex h-screen shrink-0 flex-col border-r border-sidebar-border bg-sidebar text-sidebar-foreground transition-[width] duration-200",
        collapsed ? "w-16" : "w-64",
      )}
      aria-label="Menu principal"
    >
      <div className={cn("flex h-16 items-center border-b border-sidebar-border px-3", collapsed ? "justify-center" : "justify-between")}>
        {collapsed ? null : (
          <div className="min-w-0">
            <p className="truncate text-base font-semibold text-sidebar-primary">Sinapse</p>
            <p className="truncate text-xs text-muted-foreground">{clinicName}</p>
          </div>
        )}
        <button
          type="button"
          onClick={toggleCollapsed}
          className="rounded-md p-2 text-muted-foreground hover:bg-sidebar-accent hover:text-sidebar-accent-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          aria-label={collapsed ? "Expandir menu" : "Recolher menu"}
          title={collapsed ? "Expandir menu" : "Recolher menu"}
        >
          {collapsed ? <PanelLeftOpen className="size-5" /> : <PanelLeftClose className="size-5" />}
        </button>
      </div>
      <nav className="flex-1 space-y-1 overflow-y-auto p-2 text-sm">
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
    </aside>
  );
}

function SidebarLink({ item, collapsed, nested = false }: { item: NavItem; collapsed: boolean; nested?: boolean }) {
  const Icon = item.icon;
  return (
    <NavLink
      to={item.to}
      prefetch="intent"
      title={collapsed ? item.label : undefined}
      aria-label={collapsed ? item.label : undefined}
      className={({ isActive }) =>
        cn(
          "flex items-center gap-3 rounded-md px-3 py-2 transition-colors hover:bg-sidebar-accent hover:text-sidebar-accent-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none",
          collapsed && "justify-center px-0",
          nested && !collapsed && "pl-9",
          isActive && "bg-sidebar-primary font-medium text-sidebar-primary-foreground hover:bg-sidebar-primary hover:text-sidebar-primary-foreground",
        )
      }
    >
      <Icon className="size-4 shrink-0" aria-hidden />
      {collapsed ? null : <span className="truncate">{item.label}</span>}
    </NavLink>
  );
}

function Collapsible({
  id,
  label,
  icon: Icon,
  collapsed,
  expanded,
  onToggle,
  children,
}: {
  id: string;
  label: string;
  icon: NavGroup["icon"];
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
      className="group/details"
    >
      <summary className="flex cursor-pointer list-none items-center gap-3 rounded-md px-3 py-2 font-medium text-muted-foreground select-none hover:bg-sidebar-accent hover:text-sidebar-accent-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none [&::-webkit-details-marker]:hidden">
        <Icon className="size-4 shrink-0" aria-hidden />
        <span className="flex-1 truncate">{label}</span>
        <ChevronRight className="size-4 shrink-0 transition-transform group-open/details:rotate-90" aria-hidden />
      </summary>
      <div className="mt-0.5 space-y-0.5">{children}</div>
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
      <ul className="space-y-0.5">
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
        <ul className="space-y-0.5">
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
