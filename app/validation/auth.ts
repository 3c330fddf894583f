import { z } from "./zod";

export const DEFAULT_PASSWORD_MIN_LENGTH = 8;
const PASSWORD_MAX_LENGTH = 128;

const email = z
  .string({ error: "Informe o e-mail" })
  .trim()
  .max(254, "E-mail muito longo")
  .pipe(z.email({ error: "E-mail inválido" }));

export const loginSchema = z.object({
  email,
  password: z.string({ error: "Informe a senha" }).min(1, "Informe a senha").max(PASSWORD_MAX_LENGTH),
});

function newPassword(minLength: number) {
  return z
    .string({ error: "Informe a senha" })
    .min(minLength, `A senha deve ter pelo menos ${minLength} caracteres`)
    .max(PASSWORD_MAX_LENGTH, `A senha deve ter no máximo ${PASSWORD_MAX_LENGTH} caracteres`);
}

/** Sign-up; the minimum password length is a clinic setting, so the schema is built per request. */
export function signupSchema(passwordMinLength: number) {
  return z.object({
    name: z.string({ error: "Informe o nome completo" }).trim().min(1, "Informe o nome completo").max(120, "Nome muito longo"),
    email,
    password: newPassword(passwordMinLength),
  });
}

export function changePasswordSchema(passwordMinLength: number) {
  return z
    .object({
      currentPassword: z.string({ error: "Informe a senha atual" }).min(1, "Informe a senha atual").max(PASSWORD_MAX_LENGTH),
      newPassword: newPassword(passwordMinLength),
      confirmPassword: z.string({ error: "Confirme a nova senha" }),
    })
    .refine((v) => v.newPassword === v.confirmPassword, {
      message: "As senhas não conferem",
      path: ["confirmPassword"],
    });
}

/** A new password chosen at sign-in, when an administrator required one. */
export function requiredPasswordSchema(passwordMinLength: number) {
  return z
    .object({
      newPassword: newPassword(passwordMinLength),
      confirmPassword: z.string({ error: "Confirme a nova senha" }),
    })
    .refine((v) => v.newPassword === v.confirmPassword, {
      message: "As senhas não conferem",
      path: ["confirmPassword"],
    });
}

/** The sign-in's second step: a 6-digit authenticator code or a recovery code (xxxxx-xxxxx). */
export const mfaCodeSchema = z.object({
  code: z
    .string({ error: "Informe o código" })
    .trim()
    .min(6, "Informe o código de 6 dígitos ou um código de recuperação")
    .max(20, "Código inválido"),
});

/** Activating the factor: the first code the authenticator app shows. */
export const mfaEnrolSchema = z.object({
  code: z
    .string({ error: "Informe o código" })
    .trim()
    .regex(/^\d{3} ?\d{3}$/, "Informe os 6 dígitos mostrados no aplicativo"),
});

/** Removing the factor asks for the password again. */
export const mfaRemoveSchema = z.object({
  currentPassword: z.string({ error: "Informe a senha atual" }).min(1, "Informe a senha atual").max(PASSWORD_MAX_LENGTH),
});
