/**
 * The sidebar's icons, by their Lucide names: symbols of the app's icon sprite
 * (app/assets/icons.svg, see app/components/icons.tsx), drawn with `<use>`. Adding a name here:
 * run `UPDATE_ICONS=1 npx vitest run tests/unit/icons.test.ts` to redraw the sprite (the test
 * fails until the sprite matches).
 */
export const NAV_ICONS = [
  "Activity",
  "BarChart3",
  "Bot",
  "Brain",
  "Building2",
  "Calendar",
  "CalendarDays",
  "CheckSquare",
  "ClipboardList",
  "DollarSign",
  "FileText",
  "FolderOpen",
  "Gauge",
  "HardDrive",
  "Hospital",
  "KanbanSquare",
  "LayoutDashboard",
  "MessageSquare",
  "Package",
  "Receipt",
  "Settings",
  "Share2",
  "ShieldCheck",
  "Sparkles",
  "Stethoscope",
  "Syringe",
  "Truck",
  "Upload",
  "UserRound",
  "Users",
  "Wallet",
] as const;

export type NavIcon = (typeof NAV_ICONS)[number];

export interface NavItem {
  to: string;
  label: string;
  icon: NavIcon;
}

export interface NavSubgroup {
  id: string;
  label: string;
  icon: NavIcon;
  items: NavItem[];
}

export type NavEntry = NavItem | NavSubgroup;

export interface NavGroup {
  /** Ids are what `sidebar-expanded-groups` stores; keep them stable. */
  id: string;
  label: string;
  icon: NavIcon;
  entries: NavEntry[];
}

/** A block of the sidebar: a collapsible group, or links that stand on their own. */
export type NavSection = { kind: "group"; group: NavGroup } | { kind: "items"; items: NavItem[] };

export function isSubgroup(entry: NavEntry): entry is NavSubgroup {
  return "items" in entry;
}

/** SPEC §2 Layout: the sidebar's groups, entries, labels and order. */
export const NAVIGATION: NavSection[] = [
  {
    kind: "group",
    group: {
      id: "principal",
      label: "Principal",
      icon: "LayoutDashboard",
      entries: [
        { to: "/dashboard", label: "Dashboard", icon: "LayoutDashboard" },
        { to: "/tasks", label: "Gestão de Tarefas", icon: "CheckSquare" },
        { to: "/kpis/operacionais", label: "KPIs", icon: "Gauge" },
      ],
    },
  },
  {
    kind: "group",
    group: {
      id: "cirurgico",
      label: "Cirúrgico",
      icon: "Syringe",
      entries: [
        { to: "/pipeline", label: "Kanban Cirurgias", icon: "KanbanSquare" },
        {
          id: "grupos-cirurgicos",
          label: "Grupos Cirúrgicos",
          icon: "Brain",
          items: [{ to: "/cirurgico/grupos/neurocirurgia", label: "Neurocirurgia", icon: "Brain" }],
        },
        { to: "/procedures", label: "Procedimentos", icon: "ClipboardList" },
        { to: "/surgeries", label: "Cirurgias", icon: "Activity" },
      ],
    },
  },
  {
    kind: "group",
    group: {
      id: "pacientes",
      label: "Pacientes",
      icon: "Users",
      entries: [
        { to: "/patients", label: "Pacientes", icon: "Users" },
        { to: "/appointments", label: "Consultas", icon: "Calendar" },
        { to: "/schedule", label: "Agenda", icon: "CalendarDays" },
        { to: "/google-calendar", label: "Google Calendar", icon: "CalendarDays" },
        { to: "/pipeline", label: "Pipeline Cirúrgico", icon: "KanbanSquare" },
        { to: "/comunicacao", label: "Comunicação", icon: "MessageSquare" },
      ],
    },
  },
  { kind: "items", items: [{ to: "/doctors", label: "Médicos", icon: "Stethoscope" }] },
  {
    kind: "group",
    group: {
      id: "kpis",
      label: "KPIs Detalhados",
      icon: "BarChart3",
      entries: [
        { to: "/kpis/operacionais", label: "Operacionais", icon: "Gauge" },
        { to: "/kpis/cirurgicos", label: "Cirúrgicos", icon: "Activity" },
        { to: "/kpis/financeiros", label: "Financeiros", icon: "DollarSign" },
        { to: "/kpis/opme", label: "OPME", icon: "Package" },
        { to: "/kpis/metricas", label: "Métricas", icon: "BarChart3" },
      ],
    },
  },
  {
    kind: "items",
    items: [
      { to: "/sops", label: "SOPs", icon: "FileText" },
      { to: "/orders", label: "Pedidos", icon: "Package" },
      { to: "/referrers", label: "Encaminhadores", icon: "Share2" },
    ],
  },
  {
    kind: "group",
    group: {
      id: "honorarios",
      label: "Honorários",
      icon: "Wallet",
      entries: [
        { to: "/honorarios/medicos", label: "Por Médico", icon: "UserRound" },
        { to: "/honorarios/cbhpm", label: "CBHPM", icon: "ClipboardList" },
        { to: "/honorarios/pagador", label: "Por Pagador", icon: "Building2" },
        { to: "/honorarios/tabelas", label: "Tabelas de Referência", icon: "FileText" },
      ],
    },
  },
  {
    kind: "group",
    group: {
      id: "financeiro",
      label: "Financeiro",
      icon: "DollarSign",
      entries: [
        { to: "/financial", label: "Transações", icon: "DollarSign" },
        { to: "/financeiro/cirurgias-receber", label: "Cirurgias a Receber", icon: "Receipt" },
        { to: "/financeiro/cirurgias-pagas", label: "Cirurgias Pagas", icon: "Wallet" },
        { to: "/financeiro/folhas-sala", label: "Folhas de Sala", icon: "FileText" },
        { to: "/financeiro/folhas-unimed", label: "Folhas Unimed", icon: "FileText" },
        { to: "/financeiro/importar-honorarios", label: "Importar Honorários", icon: "Upload" },
      ],
    },
  },
  {
    kind: "group",
    group: {
      id: "cadastros",
      label: "Cadastros",
      icon: "FolderOpen",
      entries: [
        { to: "/master-data/payers", label: "Pagadores", icon: "ShieldCheck" },
        { to: "/master-data/hospitals", label: "Hospitais", icon: "Hospital" },
        { to: "/master-data/codes", label: "Códigos Médicos", icon: "ClipboardList" },
        { to: "/master-data/suppliers", label: "Fornecedores", icon: "Truck" },
      ],
    },
  },
  {
    kind: "group",
    group: {
      id: "integracoes",
      label: "Integrações",
      icon: "Share2",
      entries: [
        { to: "/google-drive", label: "Google Drive", icon: "HardDrive" },
        { to: "/google-forms", label: "Google Forms", icon: "FileText" },
      ],
    },
  },
  {
    kind: "group",
    group: {
      id: "ia",
      label: "Assistentes IA",
      icon: "Bot",
      entries: [
        { to: "/ia/dashboard", label: "Dashboard IA", icon: "Sparkles" },
        { to: "/ia/triagem", label: "Triagem", icon: "Stethoscope" },
        { to: "/ia/mensagens", label: "Mensagens", icon: "MessageSquare" },
        { to: "/ia/opme-copilot", label: "OPME Copilot", icon: "Package" },
        { to: "/ia/aprovacoes", label: "Aprovações", icon: "CheckSquare" },
        { to: "/ia/rag", label: "Base de Conhecimento", icon: "Bot" },
      ],
    },
  },
  {
    kind: "items",
    items: [
      { to: "/files", label: "Arquivos", icon: "FolderOpen" },
      { to: "/config", label: "Configurações", icon: "Settings" },
    ],
  },
];

/** SPEC §2 screens no sidebar entry links to (aliases and overview pages), with their titles. */
const UNLINKED_SCREENS: { to: string; label: string }[] = [
  { to: "/master-data", label: "Cadastros" },
  { to: "/communication", label: "Comunicação" },
  { to: "/surgical-groups", label: "Grupos Cirúrgicos" },
];

function sectionItems(section: NavSection): NavItem[] {
  if (section.kind === "items") return section.items;
  return section.group.entries.flatMap((entry) => (isSubgroup(entry) ? entry.items : [entry]));
}

/**
 * Every screen path the sidebar (or SPEC §2) names, once, with its title: the first label it has
 * in the sidebar. Each has its real route (tests/unit/nav-routes.test.ts).
 */
export const SCREEN_TITLES: ReadonlyMap<string, string> = (() => {
  const titles = new Map<string, string>();
  for (const item of [...NAVIGATION.flatMap(sectionItems), ...UNLINKED_SCREENS]) {
    if (!titles.has(item.to)) titles.set(item.to, item.label);
  }
  return titles;
})();

export const GROUP_IDS = NAVIGATION.flatMap((s) => (s.kind === "group" ? [s.group.id] : []));

/** Every sidebar link's target, in the sidebar's order (a page listed twice appears twice). */
const NAV_TARGETS = NAVIGATION.flatMap(sectionItems).map((item) => item.to);

function entryPaths(entry: NavEntry): string[] {
  return isSubgroup(entry) ? entry.items.map((i) => i.to) : [entry.to];
}

/**
 * NavLink's rule for the current page (case-insensitive: the target itself or a path below it),
 * computed by hand: a plain Link renders the same markup for a fraction of NavLink's cost.
 */
export function isActiveTarget(pathname: string, to: string): boolean {
  const path = pathname.toLowerCase();
  const target = to.toLowerCase();
  return path === target || (path.startsWith(target) && path.charAt(target.length) === "/");
}

/** The sidebar's links that are the current page (one per place the page is listed). */
export function activeTargets(pathname: string): string[] {
  return NAV_TARGETS.filter((to) => isActiveTarget(pathname, to));
}

/** The groups (and subgroups) holding the current path: open by default before any preference exists. */
export function groupsForPath(pathname: string): string[] {
  const open: string[] = [];
  for (const section of NAVIGATION) {
    if (section.kind !== "group") continue;
    for (const entry of section.group.entries) {
      if (entryPaths(entry).some((p) => pathname === p || pathname.startsWith(`${p}/`))) {
        open.push(section.group.id);
        if (isSubgroup(entry)) open.push(entry.id);
      }
    }
  }
  return [...new Set(open)];
}
