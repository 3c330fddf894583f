import { type ComponentProps, type Ref, forwardRef } from "react";
import { Link as RouterLink } from "react-router";

export type LinkProps = ComponentProps<typeof RouterLink>;

/**
 * An absolute path ('/patients?edit=5') that React Router's `<Link>` renders unchanged: no '//'
 * start, no '.' or '..' segment, no empty '?' or '#'. Everything else goes through `<Link>`.
 */
const PLAIN_PATH = /^\/(?:(?!\.\.?(?:[/?#]|$))[^/?#]+\/?)*(?:\?[^#]+)?(?:#.+)?$/;

/** Link props that change what `<Link>` renders (or that only `<Link>` can act on). */
function rendersPlain(props: LinkProps): props is LinkProps & { to: string } {
  return (
    typeof props.to === "string" &&
    PLAIN_PATH.test(props.to) &&
    !props.reloadDocument &&
    !props.mask &&
    (props.prefetch === undefined || props.prefetch === "none" || props.prefetch === "intent") &&
    (props.discover === undefined || props.discover === "none" || props.discover === "render")
  );
}

/**
 * The server's rendering of `<Link to="/absolute/path">`: the same `<a>` with the same attributes
 * (tests/unit/link.test.tsx compares the two), without the hooks, context reads and path
 * resolution `<Link>` does for every instance. A list page has 100+ links (sidebar, row actions,
 * sorting, pages): they were a quarter of its rendering time.
 */
function ServerLink(props: LinkProps, ref: Ref<HTMLAnchorElement>) {
  if (!rendersPlain(props)) return UndiscoveredLink(props, ref);
  const {
    to,
    discover = "none",
    prefetch: _prefetch,
    relative: _relative,
    reloadDocument: _reloadDocument,
    replace: _replace,
    mask: _mask,
    state: _state,
    preventScrollReset: _preventScrollReset,
    viewTransition: _viewTransition,
    defaultShouldRevalidate: _defaultShouldRevalidate,
    onClick: _onClick,
    target,
    ...rest
  } = props;
  return <a {...rest} href={to} ref={ref} target={target} data-discover={discover === "render" ? "true" : undefined} />;
}

/** React Router's `<Link>` with `discover="none"` unless told otherwise (see `Link`). */
function UndiscoveredLink(props: LinkProps, ref: Ref<HTMLAnchorElement>) {
  return <RouterLink ref={ref} discover="none" {...props} />;
}

/**
 * React Router's `<Link>`, the same props and behaviour, but `discover` defaults to "none". In the
 * browser it is `<Link>` with that default; on the server, links to plain absolute paths render
 * straight to their `<a>` (identical markup, so hydration sees no difference and the browser's
 * `<Link>` takes over).
 *
 * `discover` only matters to lazy route discovery, which this app does not use
 * (`routeDiscovery: { mode: "initial" }` in react-router.config.ts: the browser has every route
 * from the start). React Router still marks each link with `data-discover="true"` by default:
 * 20 bytes on each of the 125–290 links of a page.
 */
export const Link: typeof RouterLink = forwardRef(typeof document === "undefined" ? ServerLink : UndiscoveredLink);
