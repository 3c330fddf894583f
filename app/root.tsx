import { Suspense, lazy, useEffect } from "react";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  data,
  isRouteErrorResponse,
  useRouteLoaderData,
} from "react-router";
import { readToast } from "~/.server/toast";
import { Link } from "~/components/ui/link";
import { useNonce } from "~/lib/nonce";
import { themeBootScript, useTheme } from "~/lib/theme";
import type { Route } from "./+types/root";
import "./app.css";

export const meta: Route.MetaFunction = () => [{ title: "Sinapse" }];

/** The product's mark: SVG for browsers that take it, favicon.ico for the rest (and for /favicon.ico requests). */
export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "icon", href: "/favicon.ico", sizes: "16x16 32x32 48x48" },
];

export async function loader({ request }: Route.LoaderArgs) {
  const { toast, headers } = await readToast(request);
  return data({ toast }, { headers });
}

// The security headers of every page (CSP with a nonce, no framing, no MIME sniffing …) are set in
// app/entry.server.tsx; the inline scripts below carry the request's nonce.
export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  // Marks the page as hydrated, its scripts in charge: the browser tests wait for it after loading a page.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
  return (
    <html lang="pt-BR" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: themeBootScript }} />
        {/* Marks that scripts run, before the first paint: the CSS lays out a no-JavaScript page differently (app.css). */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: `document.documentElement.classList.add("js")` }} />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen bg-background text-foreground antialiased">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/** The page header is `h-16` (64 px); toasts start 8 px below it. */
const TOAST_TOP = 72;

/**
 * sonner (≈10 KB gzipped) is not part of every page's first load: the toaster arrives in its own
 * chunk once the page has hydrated. A toast shown before it subscribes is not lost (sonner replays
 * the active ones to a late Toaster).
 */
const Toaster = lazy(() => import("sonner").then((sonner) => ({ default: sonner.Toaster })));

function Toasts() {
  const rootData = useRouteLoaderData<typeof loader>("root");
  const theme = useTheme();
  const toast = rootData?.toast;
  useEffect(() => {
    if (!toast) return;
    let cancelled = false;
    void import("sonner").then(({ toast: showToast }) => {
      if (cancelled) return;
      const options = toast.description ? { description: toast.description } : undefined;
      if (toast.type === "success") showToast.success(toast.message, options);
      else if (toast.type === "error") showToast.error(toast.message, options);
      else showToast.info(toast.message, options);
    });
    return () => {
      cancelled = true;
    };
  }, [toast]);
  return (
    <>
      <Suspense fallback={null}>
        {/* Below the sticky 64 px page header, so a toast never covers the user menu or theme toggle. */}
        <Toaster
          theme={theme}
          richColors
          closeButton
          position="top-right"
          offset={{ top: TOAST_TOP }}
          mobileOffset={{ top: TOAST_TOP }}
        />
      </Suspense>
      {toast ? (
        // Without JavaScript sonner cannot run; the message still reaches the person.
        <noscript>
          <div
            role="status"
            className={`pointer-events-none fixed right-4 bottom-4 z-50 rounded-md border px-4 py-3 text-sm shadow ${
              toast.type === "error" ? "border-destructive bg-destructive text-white" : "bg-card"
            }`}
          >
            <strong>{toast.message}</strong>
            {toast.description ? <div>{toast.description}</div> : null}
          </div>
        </noscript>
      ) : null}
    </>
  );
}

export default function App() {
  return (
    <>
      <Outlet />
      <Toasts />
    </>
  );
}

export function NotFoundPage() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 bg-muted p-8 text-center">
      <h1 className="text-4xl font-bold">404</h1>
      <p className="text-xl text-muted-foreground">Oops! Page not found</p>
      <Link to="/" className="text-primary underline underline-offset-4 hover:opacity-80">
        Return to Home
      </Link>
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  const detail = import.meta.env.DEV && error instanceof Error ? error.stack : null;
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 p-8 text-center">
      <h1 className="text-2xl font-bold">Unexpected Application Error!</h1>
      <p className="text-muted-foreground">
        {isRouteErrorResponse(error)
          ? `${error.status} ${error.statusText}`
          : "Algo deu errado ao exibir esta página. Tente novamente."}
      </p>
      <Link to="/" className="text-primary underline underline-offset-4">
        Voltar ao início
      </Link>
      {detail ? <pre className="max-w-full overflow-auto text-left text-xs">{detail}</pre> : null}
    </main>
  );
}
