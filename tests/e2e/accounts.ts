/** Accounts the browser tests sign in with (created by setup-accounts.ts on the test server). */
export const PASSWORD = "senha-de-teste-123";

export const ACCOUNTS = {
  admin: { name: "Ana Administradora", email: "admin@teste.sinapse", role: "admin" },
  staff: { name: "Sérgio Equipe", email: "equipe@teste.sinapse", role: "staff" },
  doctor: { name: "Dra. Márcia Médica", email: "medica@teste.sinapse", role: "doctor" },
  /** Used only by the password-change test, so no other test loses its login meanwhile. */
  rotating: { name: "Renata Rotação", email: "rotacao@teste.sinapse", role: "staff" },
  pending: { name: "Paulo Pendente", email: "pendente@teste.sinapse", role: null },
  /** Used only by the security tests (second factor, forced password reset). */
  secure: { name: "Sílvia Segura", email: "segura@teste.sinapse", role: "doctor" },
  resetting: { name: "Roberto Redefinição", email: "redefinir@teste.sinapse", role: "staff" },
} as const;

export type AccountName = keyof typeof ACCOUNTS;
