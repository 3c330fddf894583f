import { type Cookie, type Page, type Response, test as base, expect } from "@playwright/test";
import { ACCOUNTS, type AccountName, PASSWORD } from "./accounts";

export { expect };

/**
 * Accounts whose sessions a test may end or whose credentials it changes: they always sign in
 * through the form (loginAs in helpers.ts), so no other test depends on their session.
 */
const NEVER_SHARED = new Set<AccountName>(["rotating", "secure", "resetting"]);

interface AccountSessions {
  /** The session cookie of `account` on this worker's server, signed in on first use. */
  cookies(account: AccountName): Promise<Cookie[]>;
}

/**
 * `signIn(page, account)` gives the page's browser context a session of `account` that this
 * worker signed in once (a POST of the /auth form, as the browser sends it) and shares with every
 * later test of the worker. The page is left where it was (about:blank for a fresh page): go to
 * the screen under test next. Tests about signing in or out, sessions, second factors, throttling
 * or onboarding sign in through the form with loginAs instead, and tests that sign out use it too:
 * signing out would end the shared session for the rest of the worker.
 */
export type SignIn = (page: Page, account: AccountName) => Promise<void>;

export const test = base.extend<{ signIn: SignIn }, { accountSessions: AccountSessions }>({
  accountSessions: [
    async ({ playwright }, use, workerInfo) => {
      // Each project has its own server; a worker runs the tests of one project only.
      const baseURL = workerInfo.project.use.baseURL;
      if (!baseURL) throw new Error(`Project ${workerInfo.project.name} has no baseURL to sign in to`);
      const signedIn = new Map<AccountName, Promise<Cookie[]>>();
      const signInOnce = async (account: AccountName) => {
        const request = await playwright.request.newContext({ baseURL });
        try {
          const response = await request.post("/auth", {
            form: { email: ACCOUNTS[account].email, password: PASSWORD },
            headers: { Origin: baseURL },
            maxRedirects: 0,
          });
          if (response.status() !== 302) throw new Error(`Signing in as ${account} answered ${response.status()}`);
          const { cookies } = await request.storageState();
          const session = cookies.filter((cookie) => cookie.name === "sinapse_session");
          if (session.length !== 1) throw new Error(`Signing in as ${account} set no session cookie`);
          return session;
        } finally {
          await request.dispose();
        }
      };
      await use({
        cookies(account) {
          if (NEVER_SHARED.has(account)) throw new Error(`The ${account} account signs in through the form (loginAs), never shared`);
          let session = signedIn.get(account);
          if (!session) {
            session = signInOnce(account);
            signedIn.set(account, session);
          }
          return session;
        },
      });
    },
    { scope: "worker" },
  ],
  // With JavaScript on, `page.goto` and `page.reload` return once an HTML page has hydrated (the
  // root's `data-hydrated`): a click before that meets the no-JavaScript page (a required select's
  // own check, a plain form post) and a test would see another behaviour than the one it drives.
  page: async ({ page, javaScriptEnabled }, use) => {
    if (javaScriptEnabled !== false) {
      const goto = page.goto.bind(page);
      const reload = page.reload.bind(page);
      page.goto = async (url, options) => hydrated(page, await goto(url, options));
      page.reload = async (options) => hydrated(page, await reload(options));
    }
    await use(page);
  },
  signIn: async ({ accountSessions }, use) => {
    await use(async (page, account) => {
      const context = page.context();
      // Never send another account's cookie along (signing in over it would end that session).
      await context.clearCookies();
      await context.addCookies(await accountSessions.cookies(account));
    });
  },
});

/** `response`, once the page it loaded has hydrated, if it loaded an HTML page (not a JSON or a file). */
async function hydrated(page: Page, response: Response | null): Promise<Response | null> {
  if (response && (response.headers()["content-type"] ?? "").startsWith("text/html")) {
    await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 30_000 });
  }
  return response;
}
