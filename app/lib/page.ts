/** Route modules export `handle: PageHandle` so the shell's header can show their title. */
export interface PageHandle {
  title: string;
  subtitle?: string;
}

export function isPageHandle(value: unknown): value is PageHandle {
  return typeof value === "object" && value !== null && typeof (value as PageHandle).title === "string";
}

/** Up to two initials of a profile name; 'DA' when there is no name to take them from. */
export function initialsOf(name: string | null | undefined): string {
  const words = (name ?? "").trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return "DA";
  const first = words[0][0];
  const last = words.length > 1 ? words[words.length - 1][0] : "";
  return (first + last).toUpperCase().slice(0, 2);
}

export function displayName(name: string | null | undefined): string {
  return name?.trim() || "Usuário";
}
