/**
 * SPEC §6 as data. Both the server (`requirePermission`) and the UI (`can`) read this table,
 * so a button is shown exactly when the server would accept its request.
 *
 * Doctors may view wherever any signed-in user may view, and have full access to tasks.
 * An account without a role can do nothing until an administrator grants one.
 */
export const ROLES = ["admin", "staff", "doctor"] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  admin: "Administrador",
  staff: "Equipe",
  doctor: "Médico",
};

export const ACTIONS = ["view", "create", "edit", "delete", "export"] as const;
export type Action = (typeof ACTIONS)[number];

const ALL: readonly Role[] = ["admin", "staff", "doctor"];
const ADMIN_STAFF: readonly Role[] = ["admin", "staff"];
const ADMIN: readonly Role[] = ["admin"];

type Rule = Record<Action, readonly Role[]>;
/** Exporting a list (CSV) is for admins unless an area says otherwise. */
const rule = (
  view: readonly Role[],
  create: readonly Role[],
  edit: readonly Role[],
  del: readonly Role[],
  exportRoles: readonly Role[] = ADMIN,
): Rule => ({
  view,
  create,
  edit,
  delete: del,
  export: exportRoles,
});

export const PERMISSIONS = {
  patients: rule(ALL, ADMIN_STAFF, ADMIN_STAFF, ADMIN),
  appointments: rule(ALL, ADMIN_STAFF, ADMIN_STAFF, ADMIN),
  doctors: rule(ALL, ADMIN, ADMIN, ADMIN),
  surgeries: rule(ALL, ADMIN_STAFF, ADMIN_STAFF, ADMIN),
  /** Moving a card on the board edits the surgery. */
  pipeline: rule(ALL, ADMIN_STAFF, ADMIN_STAFF, ADMIN),
  financial: rule(ADMIN, ADMIN, ADMIN, ADMIN),
  /**
   * Receivable and paid surgeries, glosas, imports and TISS guides: admins write, staff read, a
   * doctor reads only the surgeries they performed (the model scopes the rows; ADR 0019, ADR 0018).
   */
  receivables: rule(ALL, ADMIN, ADMIN, ADMIN),
  honorarios: rule(ALL, ADMIN, ADMIN, ADMIN),
  /** Honorários per payer (what each payer billed and how fast it pays): clinic money, admins and staff (ADR 0018). */
  payerReports: rule(ADMIN_STAFF, ADMIN, ADMIN, ADMIN),
  /**
   * Fee statements (/financeiro/importar-honorarios): a statement lists every doctor's payments,
   * so staff read the list and admins import; doctors are refused (ADR 0019).
   */
  feeImports: rule(ADMIN_STAFF, ADMIN, ADMIN, ADMIN),
  /** TISS Guias de Honorários (XML for the insurer): admins and staff download them, a read (ADR 0019). */
  tiss: rule(ADMIN_STAFF, ADMIN, ADMIN, ADMIN),
  tasks: rule(ALL, ALL, ALL, ALL, ALL),
  masterData: rule(ALL, ADMIN, ADMIN, ADMIN),
  procedures: rule(ALL, ADMIN, ADMIN, ADMIN),
  sops: rule(ALL, ADMIN, ADMIN, ADMIN),
  referrers: rule(ALL, ADMIN, ADMIN, ADMIN),
  orders: rule(ALL, ADMIN_STAFF, ADMIN_STAFF, ADMIN_STAFF),
  communication: rule(ALL, ADMIN_STAFF, ADMIN, ADMIN),
  googleCalendar: rule(ALL, ADMIN_STAFF, ADMIN, ADMIN),
  googleDrive: rule(ALL, ADMIN_STAFF, ADMIN_STAFF, ADMIN),
  googleForms: rule(ALL, ADMIN_STAFF, ADMIN_STAFF, ADMIN),
  kpis: rule(ALL, ADMIN, ADMIN, ADMIN),
  files: rule(ALL, ADMIN_STAFF, ADMIN_STAFF, ADMIN),
  assistants: rule(ALL, ADMIN, ADMIN, ADMIN),
  /** The clinic's settings; every user may open the screen to change their own password. */
  settings: rule(ALL, ADMIN, ADMIN, ADMIN),
  users: rule(ADMIN, ADMIN, ADMIN, ADMIN),
  /** The audit trail (Configurações → Auditoria): read, verified and exported by admins only. */
  audit: rule(ADMIN, ADMIN, ADMIN, ADMIN),
  /** Backups and the daily backup's settings (Configurações → Backups). */
  backups: rule(ADMIN, ADMIN, ADMIN, ADMIN),
} as const satisfies Record<string, Rule>;

export type Area = keyof typeof PERMISSIONS;

export interface PermissionSubject {
  role: Role | null;
}

export function can(user: PermissionSubject | null | undefined, area: Area, action: Action): boolean {
  if (!user?.role) return false;
  return (PERMISSIONS[area][action] as readonly Role[]).includes(user.role);
}

/** What the user may do in an area, for a screen to show only the controls the server accepts. */
export function rightsIn(user: PermissionSubject, area: Area) {
  return { create: can(user, area, "create"), edit: can(user, area, "edit"), delete: can(user, area, "delete") };
}
