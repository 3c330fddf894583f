import { X } from "~/components/icons";
import { useEffect, useId, useRef, type ComponentProps, type MouseEvent, type ReactNode } from "react";
import { useNavigate, useNavigation } from "react-router";
import { Link } from "~/components/ui/link";
import { Button, ButtonLink } from "~/components/ui/button";

import { cn } from "~/lib/utils";

const maxWidthClasses = {
  sm: "max-w-sm",
  md: "max-w-md",
  lg: "max-w-lg",
  xl: "max-w-xl",
  "2xl": "max-w-2xl",
  "3xl": "max-w-3xl",
  "4xl": "max-w-4xl",
} as const;

export type DialogMaxWidth = keyof typeof maxWidthClasses;

export interface UrlDialogProps {
  /** Render the dialog (default true); usually derived from a search param such as `?edit=5`. */
  open?: boolean;
  title: ReactNode;
  description?: ReactNode;
  /** The current URL without the dialog's params; the close button, Escape and the overlay go here. */
  closeTo: string;
  maxWidth?: DialogMaxWidth;
  /** Extra classes for the panel. */
  className?: string;
  children?: ReactNode;
}

const FOCUSABLE = [
  "a[href]",
  "button:not([disabled])",
  "input:not([disabled]):not([type='hidden'])",
  "select:not([disabled])",
  "textarea:not([disabled])",
  "[tabindex]:not([tabindex='-1'])",
  "[contenteditable='true']",
].join(",");

function focusableIn(container: HTMLElement): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (element) => !element.closest("[inert]") && element.getClientRects().length > 0,
  );
}

/**
 * A modal dialog driven by the URL. It is rendered inline in the server HTML (no portal), so with
 * JavaScript off it simply shows and the forms inside post normally; closing is a link to `closeTo`.
 * With JavaScript: Escape and clicks on the overlay close it, focus moves in and is trapped, and
 * returns to where it was when the dialog goes away.
 */
export function UrlDialog({
  open = true,
  title,
  description,
  closeTo,
  maxWidth = "lg",
  className,
  children,
}: UrlDialogProps) {
  const titleId = useId();
  const descriptionId = useId();
  const panelRef = useRef<HTMLDivElement>(null);
  const pressStartedOutside = useRef(false);
  const navigate = useNavigate();

  // Move focus in on open; give it back to the element that had it when the dialog closes.
  useEffect(() => {
    if (!open) return;
    const panel = panelRef.current;
    if (!panel) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!panel.contains(document.activeElement)) {
      (focusableIn(panel)[0] ?? panel).focus({ preventScroll: true });
    }
    return () => {
      if (previous && previous.isConnected && previous !== document.body) {
        previous.focus({ preventScroll: true });
      }
    };
  }, [open]);

  // Lock the page behind; the padding keeps the layout from shifting when the scrollbar goes away.
  useEffect(() => {
    if (!open) return;
    const { body, documentElement } = document;
    const scrollbarWidth = window.innerWidth - documentElement.clientWidth;
    const previousOverflow = body.style.overflow;
    const previousPadding = body.style.paddingRight;
    body.style.overflow = "hidden";
    if (scrollbarWidth > 0) body.style.paddingRight = `${scrollbarWidth}px`;
    return () => {
      body.style.overflow = previousOverflow;
      body.style.paddingRight = previousPadding;
    };
  }, [open]);

  // Escape closes; Tab and Shift+Tab cycle inside the panel.
  useEffect(() => {
    if (!open) return;
    function onKeyDown(event: KeyboardEvent) {
      const panel = panelRef.current;
      if (!panel || event.defaultPrevented) return;
      if (event.key === "Escape") {
        event.preventDefault();
        navigate(closeTo, { preventScrollReset: true });
        return;
      }
      if (event.key !== "Tab") return;
      const focusable = focusableIn(panel);
      if (focusable.length === 0) {
        event.preventDefault();
        panel.focus();
        return;
      }
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      const active = document.activeElement;
      if (!panel.contains(active)) {
        event.preventDefault();
        (event.shiftKey ? last : first).focus();
      } else if (event.shiftKey && (active === first || active === panel)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && active === last) {
        event.preventDefault();
        first.focus();
      }
    }
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [open, closeTo, navigate]);

  if (!open) return null;

  // Closing on overlay click only when the press also started outside (not a text selection drag).
  function onOverlayMouseDown(event: MouseEvent<HTMLDivElement>) {
    pressStartedOutside.current = !panelRef.current?.contains(event.target as Node);
  }
  function onOverlayClick(event: MouseEvent<HTMLDivElement>) {
    const outside = !panelRef.current?.contains(event.target as Node);
    if (outside && pressStartedOutside.current) {
      navigate(closeTo, { preventScrollReset: true });
    }
    pressStartedOutside.current = false;
  }

  return (
    <div data-url-dialog="" className="fixed inset-0 z-50">
      <div aria-hidden="true" className="fixed inset-0 bg-black/50 motion-safe:animate-fade-in" />
      <div
        className="fixed inset-0 overflow-y-auto"
        onMouseDown={onOverlayMouseDown}
        onClick={onOverlayClick}
      >
        <div className="flex min-h-full items-center justify-center p-4 sm:p-6">
          <div
            ref={panelRef}
            role="dialog"
            aria-modal="true"
            aria-labelledby={titleId}
            aria-describedby={description ? descriptionId : undefined}
            tabIndex={-1}
            className={cn(
              "relative grid w-full gap-4 rounded-lg border bg-background p-6 text-foreground shadow-lg outline-none motion-safe:animate-dialog-in",
              maxWidthClasses[maxWidth],
              className,
            )}
          >
            <div className="flex flex-col gap-1.5 pr-8 text-center sm:text-left">
              <h2 id={titleId} className="text-lg leading-tight font-semibold">
                {title}
              </h2>
              {description && (
                <p id={descriptionId} className="text-sm text-muted-foreground">
                  {description}
                </p>
              )}
            </div>
            {children}
            {/* Last in the DOM so that focus starts at the first field, not at the close button. */}
            <Link
              to={closeTo}
              preventScrollReset
              aria-label="Fechar"
              className="absolute top-4 right-4 inline-flex size-7 items-center justify-center rounded-md text-muted-foreground opacity-80 transition-[color,opacity,box-shadow] outline-none hover:bg-accent hover:text-foreground hover:opacity-100 focus-visible:ring-[3px] focus-visible:ring-ring/50"
            >
              <X aria-hidden="true" className="size-4" />
            </Link>
          </div>
        </div>
      </div>
    </div>
  );
}

/** The row of actions at the bottom of a dialog (stacked on phones, right-aligned otherwise). */
export function DialogFooter({ className, ...props }: ComponentProps<"div">) {
  return (
    <div
      data-slot="dialog-footer"
      className={cn("flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end", className)}
      {...props}
    />
  );
}

/**
 * The footer of a form dialog: 'Cancelar' closes it (a link, so it works without JavaScript) and
 * the submit shows 'Salvando...' and is disabled while the POST is under way.
 */
export function FormDialogFooter({ closeTo, submitLabel }: { closeTo: string; submitLabel: string }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formMethod?.toUpperCase() === "POST";
  return (
    <DialogFooter>
      <ButtonLink to={closeTo} variant="outline" preventScrollReset>
        Cancelar
      </ButtonLink>
      <Button type="submit" disabled={busy}>
        {busy ? "Salvando..." : submitLabel}
      </Button>
    </DialogFooter>
  );
}
