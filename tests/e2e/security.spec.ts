import http from "node:http";
import zlib from "node:zlib";
import { expect, test } from "./fixtures";
import { generate } from "otplib";
import { ACCOUNTS, PASSWORD } from "./accounts";
import { expectToast, login, loginAs } from "./helpers";

test("a flood of 80 000 repeated fields is refused fast while the server keeps answering others", async ({ request, baseURL }) => {
  const flood = "a=b&".repeat(80_000);
  const started = Date.now();
  const [refused, other] = await Promise.all([
    fetch(`${baseURL}/auth`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: flood,
    }).then(async (response) => ({ status: response.status, ms: Date.now() - started, body: await response.text() })),
    (async () => {
      const response = await request.get("/auth");
      return { status: response.status(), ms: Date.now() - started };
    })(),
  ]);
  expect(refused.status).toBeGreaterThanOrEqual(400);
  expect(refused.status).toBeLessThan(500);
  expect(refused.ms).toBeLessThan(2000);
  expect(refused.body.length).toBeLessThan(50_000);
  expect(other.status).toBe(200);
  expect(other.ms).toBeLessThan(2000);

  // Under the size cap, the field count still refuses it before parsing.
  const fields = await fetch(`${baseURL}/auth`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: "a&".repeat(80_000),
  });
  expect(fields.status).toBe(400);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("redirectTo=/%09/evil.example after login stays on this site", async ({ page }) => {
    await page.goto("/auth?redirectTo=/%09/evil.example");
    await page.getByLabel("Email").fill(ACCOUNTS.staff.email);
    await page.getByLabel("Senha").fill(PASSWORD);
    await page.getByRole("button", { name: "Entrar" }).click();
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/dashboard$/);
  });

  test("GET /logout asks to confirm and keeps the session until the POST", async ({ page }) => {
    await loginAs(page, "doctor");
    await page.goto("/logout");
    await expect(page.getByRole("heading", { name: "Sair do Sinapse?" })).toBeVisible();
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto("/logout");
    await page.getByRole("button", { name: "Sair" }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/auth/);
  });
});

test.describe("second factor, without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("enrol with the QR code, then sign in with the code", async ({ page }) => {
    test.setTimeout(90_000);
    await loginAs(page, "secure");
    await page.goto("/settings?tab=seguranca");
    await page.getByRole("button", { name: "Configurar autenticação em dois fatores" }).click();
    await expect(page.getByRole("img", { name: "QR code para o aplicativo autenticador" }).locator("svg")).toBeVisible();
    const secret = (await page.getByTestId("mfa-secret").textContent())!.replace(/\s/g, "");
    await page.getByLabel("Código do aplicativo").fill("000000");
    await page.getByRole("button", { name: "Ativar", exact: true }).click();
    await expect(page.getByText("Código inválido.")).toBeVisible();
    await page.getByLabel("Código do aplicativo").fill(await generate({ secret }));
    await page.getByRole("button", { name: "Ativar", exact: true }).click();
    const codes = page.getByRole("list", { name: "Códigos de recuperação" }).getByRole("listitem");
    await expect(codes).toHaveCount(10);
    await expect(page.getByText("desde")).toBeVisible();
    // Shown once: a reload no longer has them.
    await page.reload();
    await expect(page.getByRole("list", { name: "Códigos de recuperação" })).toHaveCount(0);

    await page.goto("/logout");
    await page.getByRole("button", { name: "Sair" }).click();
    await login(page, ACCOUNTS.secure.email, PASSWORD);
    await expect(page.getByRole("heading", { name: "Verificação em duas etapas" })).toBeVisible();
    // Half signed in: no page opens yet.
    await page.goto("/patients");
    await expect(page).toHaveURL(/\/auth/);
    await page.getByLabel("Código").fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }));
    await page.getByRole("button", { name: "Verificar" }).click();
    // Where the visitor was going when sent to sign in.
    await expect(page).toHaveURL(/\/patients$/);
  });
});

test("an administrator requires a new password; the user sets it at the next sign-in", async ({ page, browser, signIn }) => {
  test.setTimeout(90_000);
  const user = await browser.newContext();
  const userPage = await user.newPage();
  await loginAs(userPage, "resetting");

  await signIn(page, "admin");
  await page.goto("/settings?tab=usuarios&q=redefinir");
  await page.getByRole("link", { name: `Exigir nova senha de ${ACCOUNTS.resetting.email}` }).click();
  await expect(page.getByText("As sessões dessa pessoa serão encerradas")).toBeVisible();
  await page.getByRole("button", { name: "Exigir nova senha" }).click();
  await expectToast(page, "Nova senha exigida");
  await expect(page.getByRole("row", { name: new RegExp(ACCOUNTS.resetting.email) }).getByText("Troca pendente")).toBeVisible();

  // Their session ended at once.
  await userPage.goto("/dashboard");
  await expect(userPage).toHaveURL(/\/auth/);
  await login(userPage, ACCOUNTS.resetting.email, PASSWORD);
  await expect(userPage.getByRole("heading", { name: "Defina uma nova senha" })).toBeVisible();
  await userPage.getByLabel("Nova senha", { exact: true }).fill("uma-senha-nova-1");
  await userPage.getByLabel("Confirmar nova senha").fill("uma-senha-nova-1");
  await userPage.getByRole("button", { name: "Salvar nova senha" }).click();
  await expect(userPage).toHaveURL(/\/dashboard$/);
  await user.close();
});

test("an administrator sets the session timeouts and the lockout in Configurações → Segurança", async ({ page, signIn }) => {
  test.setTimeout(60_000);
  await signIn(page, "admin");
  await page.goto("/settings?tab=seguranca");
  await page.getByLabel("Tentativas de acesso antes do bloqueio").fill("11");
  await page.getByRole("button", { name: "Salvar política" }).click();
  await expect(page.getByText("O máximo é 10 tentativas")).toBeVisible();
  await page.getByLabel("Tentativas de acesso antes do bloqueio").fill("5");
  await page.getByLabel("Encerrar sessão após inatividade (minutos)").fill("45");
  await page.getByRole("button", { name: "Salvar política" }).click();
  await expectToast(page, "Configurações de segurança salvas");
  await page.reload();
  await expect(page.getByLabel("Encerrar sessão após inatividade (minutos)")).toHaveValue("45");
  await expect(page.getByLabel("Duração máxima da sessão (horas)")).toHaveValue("12");
});

test.describe("HTTP hardening", () => {
  test("every kind of response carries the security headers; patient data is never cached", async ({ page, request, signIn }) => {
    await signIn(page, "admin");
    const check = (headers: Record<string, string>, what: string, { page: isPage = false, cached = false } = {}) => {
      expect(headers["x-content-type-options"], what).toBe("nosniff");
      expect(headers["referrer-policy"], what).toBe("same-origin");
      expect(headers["permissions-policy"], what).toContain("camera=()");
      expect(headers["x-frame-options"], what).toBe("DENY");
      const csp = headers["content-security-policy"] ?? "";
      for (const directive of ["frame-ancestors 'none'", "object-src 'none'", "base-uri 'none'"]) expect(csp, what).toContain(directive);
      if (isPage) {
        expect(csp, what).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{20,}'/);
        expect(csp.match(/script-src[^;]*/)![0], what).not.toContain("unsafe-inline");
      }
      if (!cached) expect(headers["cache-control"], what).toBe("no-store");
      expect(headers["strict-transport-security"], what).toBeUndefined(); // plain HTTP here
    };
    const api = page.request;
    const pageResponse = await api.get("/patients");
    check(pageResponse.headers(), "page", { page: true });
    check((await api.get("/patients.data")).headers(), "data");
    check((await api.get("/api/patients?q=a")).headers(), "JSON API");
    check((await api.get("/patients/export.csv")).headers(), "CSV export");
    check((await request.get("/auth")).headers(), "sign-in page", { page: true });
    check((await request.get("/favicon.ico")).headers(), "static file", { cached: true });
    const script = (await pageResponse.text()).match(/\/assets\/[\w.-]+\.js/)![0];
    check((await request.get(script)).headers(), "script asset", { cached: true });
    // Every request its own nonce, past the 256 drawn at a time (app/entry.server.tsx).
    const nonce = async () => (await request.get("/auth")).headers()["content-security-policy"].match(/nonce-([^']+)/)![1];
    const nonces: string[] = [];
    for (let i = 0; i < 300; i++) nonces.push(await nonce());
    expect(new Set(nonces).size).toBe(300);
    expect(nonces.every((n) => Buffer.from(n, "base64").length === 16)).toBe(true);
    // Behind an HTTPS proxy: HSTS, and the session cookie becomes __Host- and Secure.
    const https = await request.get("/auth", { headers: { "X-Forwarded-Proto": "https" } });
    expect(https.headers()["strict-transport-security"]).toMatch(/max-age=\d{8}/);
  });

  test("a page is sent compressed as the browser asks (brotli, gzip or not at all), and it is the same page", async ({ baseURL }) => {
    const get = (acceptEncoding?: string) =>
      new Promise<{ encoding: string; vary: string; length: string | undefined; body: Buffer }>((resolve, reject) => {
        http
          .get(`${baseURL}/auth`, { headers: acceptEncoding ? { "Accept-Encoding": acceptEncoding } : {} }, (response) => {
            const chunks: Buffer[] = [];
            response.on("data", (chunk: Buffer) => chunks.push(chunk));
            response.on("error", reject);
            response.on("end", () =>
              resolve({
                encoding: response.headers["content-encoding"] ?? "identity",
                vary: String(response.headers.vary ?? ""),
                length: response.headers["content-length"],
                body: Buffer.concat(chunks),
              }),
            );
          })
          .on("error", reject);
      });
    // Each response has its own CSP nonce; the rest of the page is the same.
    const page = (body: Buffer) => body.toString("utf8").replace(/nonce="[^"]+"/g, 'nonce=""');
    const plain = await get();
    expect(plain.encoding).toBe("identity");
    expect(page(plain.body)).toContain("Sinapse");
    // A finished page goes out whole, with its length (server.mjs), not in chunks.
    expect(plain.length).toBe(String(plain.body.length));
    const gzip = await get("gzip, deflate");
    expect(gzip.encoding).toBe("gzip");
    expect(gzip.vary).toMatch(/accept-encoding/i);
    expect(gzip.body.length).toBeLessThan(plain.body.length / 2);
    expect(page(zlib.gunzipSync(gzip.body))).toBe(page(plain.body));
    const brotli = await get("gzip, deflate, br");
    expect(brotli.encoding).toBe("br");
    expect(brotli.body.length).toBeLessThan(plain.body.length / 2);
    expect(page(zlib.brotliDecompressSync(brotli.body))).toBe(page(plain.body));
  });

  test("pages run under the CSP without a single violation (JavaScript on)", async ({ page, signIn }) => {
    test.setTimeout(90_000);
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to (execute|load|apply)/i.test(message.text())) violations.push(message.text());
    });
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (event) => console.error(`Refused to execute: CSP ${event.violatedDirective} ${event.blockedURI}`));
    });
    await signIn(page, "admin");
    for (const path of ["/dashboard", "/patients", "/schedule", "/surgeries", "/settings?tab=seguranca"]) {
      await page.goto(path);
      await expect(page.locator("html.js")).toHaveCount(1);
    }
    // Client-side navigation and a dialog still work (scripts ran).
    await page.goto("/patients");
    await page.getByRole("link", { name: "Médicos" }).first().click();
    await expect(page).toHaveURL(/\/doctors/);
    // The toaster (a lazily loaded chunk that injects its styles) shows under the CSP.
    await page.goto("/settings");
    await page.getByRole("button", { name: "Salvar Alterações" }).click();
    await expectToast(page, "Configurações salvas com sucesso");
    expect(violations).toEqual([]);
  });
});
