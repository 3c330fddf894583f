/**
 * The app's icons (Lucide, ISC licence), drawn from one SVG sprite instead of inline paths.
 *
 * Each icon is a `<symbol>` of app/assets/icons.svg, a fingerprinted file the browser caches for a
 * year; a page draws it with `<svg><use href="…icons-<hash>.svg#Name"/></svg>`. Against
 * lucide-react's components this keeps every icon's paths out of each page's HTML (a list row's
 * edit and delete buttons were ≈0.8 KB of it) and lucide-react out of the JavaScript every page
 * loads (≈8.7 KB gzipped of the shared chunk).
 *
 * Markup repeated on every row or card of a page (a list's edit and delete links, the pipeline's
 * cards) or on every page (the sidebar's icons, NAV_ICONS in app/lib/navigation.ts) draws its
 * decorative icons with CSS instead: a class such as `ico-pencil` on the element (app.css,
 * `maskIconClass`), whose ::before is masked with lucide's drawing from app/assets/mask-icons/.
 * That is a class name in the HTML where an `<svg><use …/></svg>` costs about 110 bytes.
 *
 * Names are lucide-react's export names, so an icon is chosen at https://lucide.dev as before.
 * To add one: add it to ICON_NAMES and export it below, then redraw the sprite with
 * `UPDATE_ICONS=1 npx vitest run tests/unit/icons.test.ts` (the test fails until the sprite matches,
 * and fails if any module imports lucide-react directly).
 */
import type { ComponentType, SVGProps } from "react";
import iconsHref from "~/assets/icons.svg?url";

export const ICON_NAMES = [
  "Activity",
  "AlertTriangle",
  "ArrowDown",
  "ArrowDownLeft",
  "ArrowLeft",
  "ArrowRight",
  "ArrowRightLeft",
  "ArrowUp",
  "Bell",
  "Bot",
  "Brain",
  "Calculator",
  "Calendar",
  "CalendarDays",
  "CalendarOff",
  "CalendarPlus",
  "CalendarRange",
  "CalendarX",
  "Check",
  "CheckCircle2",
  "ChevronLeft",
  "ChevronRight",
  "ChevronsUpDown",
  "CircleCheck",
  "CircleExclamationPoint",
  "CircleX",
  "Clock",
  "Construction",
  "DatabaseBackup",
  "Download",
  "ExternalLink",
  "Eye",
  "FileSpreadsheet",
  "FileText",
  "Filter",
  "Folder",
  "FolderOpen",
  "GripVertical",
  "HardDriveUpload",
  "History",
  "Hourglass",
  "Info",
  "KeyRound",
  "Layers",
  "LayoutGrid",
  "ListChecks",
  "ListTodo",
  "LoaderCircle",
  "LogIn",
  "LogOut",
  "Menu",
  "MessageCircle",
  "MessageSquare",
  "Moon",
  "PanelLeftClose",
  "PanelLeftOpen",
  "Pencil",
  "Plus",
  "Receipt",
  "RefreshCw",
  "Scale",
  "Scissors",
  "ScrollText",
  "Search",
  "SearchX",
  "Send",
  "Settings",
  "Settings2",
  "ShieldAlert",
  "ShieldCheck",
  "SquarePen",
  "Star",
  "Stethoscope",
  "Sun",
  "Trash2",
  "TrendingDown",
  "TrendingUp",
  "TriangleAlert",
  "TriangleExclamationPoint",
  "Unplug",
  "Upload",
  "UserCheck",
  "UserX",
  "Users",
  "Wallet",
  "X",
] as const;

export type IconName = (typeof ICON_NAMES)[number];

/** What an icon accepts: any SVG attribute (className, aria-label …) and `size` (width and height, 24 by default). */
export interface IconProps extends Omit<SVGProps<SVGSVGElement>, "children" | "ref"> {
  size?: number | string;
}

/** An icon component, for props that take one (`icon={Users}`). */
export type IconComponent = ComponentType<IconProps>;

/** Lucide's rule: an icon with no accessible name of its own is decoration, hidden from assistive technology. */
function hasAccessibleName(props: object) {
  return Object.keys(props).some((key) => key.startsWith("aria-") || key === "role" || key === "title");
}

/**
 * The class that draws lucide's icon `name` as the element's ::before (app.css `.ico-<name>`, the
 * name in kebab case: "Trash2" → "ico-trash-2"). tests/unit/icons.test.ts checks that app.css draws
 * every NAV_ICONS icon.
 */
export function maskIconClass(name: string): string {
  return `ico-${name.replace(/([a-z0-9])([A-Z])/g, "$1-$2").replace(/([a-zA-Z])(\d)/g, "$1-$2").toLowerCase()}`;
}

/** The symbol `name` of the sprite. */
function SpriteIcon({ name, size = 24, ...props }: IconProps & { name: string }) {
  return (
    <svg width={size} height={size} aria-hidden={hasAccessibleName(props) ? undefined : true} {...props}>
      <use href={`${iconsHref}#${name}`} />
    </svg>
  );
}

function spriteIcon(name: IconName): IconComponent {
  const Icon = (props: IconProps) => <SpriteIcon name={name} {...props} />;
  Icon.displayName = name;
  return Icon;
}

export const Activity = spriteIcon("Activity");
export const AlertTriangle = spriteIcon("AlertTriangle");
export const ArrowDown = spriteIcon("ArrowDown");
export const ArrowDownLeft = spriteIcon("ArrowDownLeft");
export const ArrowLeft = spriteIcon("ArrowLeft");
export const ArrowRight = spriteIcon("ArrowRight");
export const ArrowRightLeft = spriteIcon("ArrowRightLeft");
export const ArrowUp = spriteIcon("ArrowUp");
export const Bell = spriteIcon("Bell");
export const Bot = spriteIcon("Bot");
export const Brain = spriteIcon("Brain");
export const Calculator = spriteIcon("Calculator");
export const Calendar = spriteIcon("Calendar");
export const CalendarDays = spriteIcon("CalendarDays");
export const CalendarOff = spriteIcon("CalendarOff");
export const CalendarPlus = spriteIcon("CalendarPlus");
export const CalendarRange = spriteIcon("CalendarRange");
export const CalendarX = spriteIcon("CalendarX");
export const Check = spriteIcon("Check");
export const CheckCircle2 = spriteIcon("CheckCircle2");
export const ChevronLeft = spriteIcon("ChevronLeft");
export const ChevronRight = spriteIcon("ChevronRight");
export const ChevronsUpDown = spriteIcon("ChevronsUpDown");
export const CircleCheck = spriteIcon("CircleCheck");
export const CircleExclamationPoint = spriteIcon("CircleExclamationPoint");
export const CircleX = spriteIcon("CircleX");
export const Clock = spriteIcon("Clock");
export const Construction = spriteIcon("Construction");
export const DatabaseBackup = spriteIcon("DatabaseBackup");
export const Download = spriteIcon("Download");
export const ExternalLink = spriteIcon("ExternalLink");
export const Eye = spriteIcon("Eye");
export const FileSpreadsheet = spriteIcon("FileSpreadsheet");
export const FileText = spriteIcon("FileText");
export const Filter = spriteIcon("Filter");
export const Folder = spriteIcon("Folder");
export const FolderOpen = spriteIcon("FolderOpen");
export const GripVertical = spriteIcon("GripVertical");
export const HardDriveUpload = spriteIcon("HardDriveUpload");
export const History = spriteIcon("History");
export const Hourglass = spriteIcon("Hourglass");
export const Info = spriteIcon("Info");
export const KeyRound = spriteIcon("KeyRound");
export const Layers = spriteIcon("Layers");
export const LayoutGrid = spriteIcon("LayoutGrid");
export const ListChecks = spriteIcon("ListChecks");
export const ListTodo = spriteIcon("ListTodo");
export const LoaderCircle = spriteIcon("LoaderCircle");
export const LogIn = spriteIcon("LogIn");
export const LogOut = spriteIcon("LogOut");
export const Menu = spriteIcon("Menu");
export const MessageCircle = spriteIcon("MessageCircle");
export const MessageSquare = spriteIcon("MessageSquare");
export const Moon = spriteIcon("Moon");
export const PanelLeftClose = spriteIcon("PanelLeftClose");
export const PanelLeftOpen = spriteIcon("PanelLeftOpen");
export const Pencil = spriteIcon("Pencil");
export const Plus = spriteIcon("Plus");
export const Receipt = spriteIcon("Receipt");
export const RefreshCw = spriteIcon("RefreshCw");
export const Scale = spriteIcon("Scale");
export const Scissors = spriteIcon("Scissors");
export const ScrollText = spriteIcon("ScrollText");
export const Search = spriteIcon("Search");
export const SearchX = spriteIcon("SearchX");
export const Send = spriteIcon("Send");
export const Settings = spriteIcon("Settings");
export const Settings2 = spriteIcon("Settings2");
export const ShieldAlert = spriteIcon("ShieldAlert");
export const ShieldCheck = spriteIcon("ShieldCheck");
export const SquarePen = spriteIcon("SquarePen");
export const Star = spriteIcon("Star");
export const Stethoscope = spriteIcon("Stethoscope");
export const Sun = spriteIcon("Sun");
export const Trash2 = spriteIcon("Trash2");
export const TrendingDown = spriteIcon("TrendingDown");
export const TrendingUp = spriteIcon("TrendingUp");
export const TriangleAlert = spriteIcon("TriangleAlert");
export const TriangleExclamationPoint = spriteIcon("TriangleExclamationPoint");
export const Unplug = spriteIcon("Unplug");
export const Upload = spriteIcon("Upload");
export const UserCheck = spriteIcon("UserCheck");
export const UserX = spriteIcon("UserX");
export const Users = spriteIcon("Users");
export const Wallet = spriteIcon("Wallet");
export const X = spriteIcon("X");
