import { ArrowDown, ArrowUp, ChevronLeft, ChevronRight, ChevronsUpDown, Search } from "~/components/icons";
import { useCallback, useEffect, useId, useRef, type ReactNode } from "react";
import { Form, useLocation, useSearchParams, useSubmit } from "react-router";
import { Link } from "~/components/ui/link";

import { buttonVariants } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import {
  KeptTableBody,
  Table,
  TableCell,
  TableHead,
  TableRow,
} from "~/components/ui/table";
import { pathWithParams, type ParamChanges } from "~/lib/url";
import { CachedElement, cacheKeyOf } from "~/lib/markup-cache";
import { formatCount } from "~/lib/text";
import { cn } from "~/lib/utils";

export { withParams } from "~/lib/url";

/**
 * Builds links to the current URL with some params changed (null deletes), as absolute paths so
 * they also resolve correctly from components rendered by layout routes.
 */
export function useHrefWithParams(): (changes: ParamChanges) => string {
  const { pathname, search } = useLocation();
  return useCallback(
    (changes: ParamChanges) => pathWithParams(pathname, search, changes),
    [pathname, search],
  );
}

export interface DataTableColumn<Row> {
  /** Unique within the table. */
  key: string;
  header: ReactNode;
  /** The `sort` param value for this column; makes the header a sort link. */
  sortKey?: string;
  /** Classes for the header and the cells of this column (e.g. "text-right w-24"). */
  className?: string;
  cell: (row: Row) => ReactNode;
}

export interface DataTableProps<Row> {
  columns: DataTableColumn<Row>[];
  rows: Row[];
  getRowKey: (row: Row) => string | number;
  /** Shown in a single row when `rows` is empty, e.g. "No patients found". */
  emptyText: ReactNode;
  /** Number of records matching the filters (all pages). */
  total: number;
  /** Current page, starting at 1. */
  page: number;
  pageSize: number;
  /** Accessible name of the table (visually hidden caption). */
  caption?: string;
  /** The order the loader applied (its default included), shown as the active sort. */
  sort?: { key: string; dir: SortDirection };
  /**
   * Keyset paging from the model (app/.server/pagination.ts): the cursors of the next and previous
   * pages (null: none), and whether `total` is a cap ('10.000+'). Without it, pages are numbered
   * links computed from `total`.
   */
  keyset?: { next: string | null; prev: string | null; totalCapped: boolean };
  /**
   * Keep the rows' server markup and send it again for the same rows, instead of rendering them
   * for every request (docs/decisions/0025-cached-shell-markup.md). The value is everything the
   * cells read besides their row and the page's URL: the user's rights shown in the actions
   * column, say. A cell that reads anything else must not be in a table given this.
   */
  keepRows?: unknown;
  className?: string;
}

type SortDirection = "asc" | "desc";

/**
 * A server-driven table: sorting and pagination are links that change `sort`, `dir` and `page` in
 * the URL (keeping every other param), so the loader does the work and it all works without
 * JavaScript.
 */
export function DataTable<Row>({
  columns,
  rows,
  getRowKey,
  emptyText,
  total,
  page,
  pageSize,
  caption,
  sort,
  keyset,
  keepRows,
  className,
}: DataTableProps<Row>) {
  const [searchParams] = useSearchParams();
  const hrefWith = useHrefWithParams();
  const { pathname, search } = useLocation();
  const headId = useId();
  const rowsId = useId();
  const currentSort = sort?.key ?? searchParams.get("sort");
  const currentDir: SortDirection = (sort?.dir ?? searchParams.get("dir")) === "desc" ? "desc" : "asc";

  return (
    <div className={cn("flex flex-col gap-3", className)}>
      <div className="rounded-md border">
        <Table>
          {caption && <caption className="sr-only">{caption}</caption>}
          {/* The header's markup, kept per URL and columns when every heading is text (ADR 0025). */}
          <CachedElement
            as="thead"
            id={headId}
            cacheKey={headKeyOf(columns, currentSort, currentDir, pathname + search)}
            data-slot="table-header"
            className="[&_tr]:border-b"
          >
            {() => (
              <TableRow className="hover:bg-transparent">
                {columns.map((column) => {
                  if (!column.sortKey) {
                    return (
                      <TableHead key={column.key} className={column.className}>
                        {column.header}
                      </TableHead>
                    );
                  }
                  const sorted = currentSort === column.sortKey;
                  const nextDir: SortDirection = sorted && currentDir === "asc" ? "desc" : "asc";
                  const SortIcon = !sorted ? ChevronsUpDown : currentDir === "asc" ? ArrowUp : ArrowDown;
                  return (
                    <TableHead
                      key={column.key}
                      className={column.className}
                      aria-sort={sorted ? (currentDir === "asc" ? "ascending" : "descending") : "none"}
                    >
                      <Link
                        to={hrefWith({ sort: column.sortKey, dir: nextDir, page: null, after: null, before: null })}
                        preventScrollReset
                        className="-ml-2 inline-flex h-8 items-center gap-1 rounded-md px-2 outline-none hover:bg-accent hover:text-accent-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50"
                      >
                        {column.header}
                        <SortIcon
                          aria-hidden="true"
                          className={cn("size-3.5", !sorted && "opacity-50")}
                        />
                      </Link>
                    </TableHead>
                  );
                })}
              </TableRow>
            )}
          </CachedElement>
          {/* TableBody's markup, kept per page of rows when the table says what else its cells read. */}
          <KeptTableBody
            id={rowsId}
            cacheKey={keepRows === undefined ? undefined : cacheKeyOf(["rows", columns.map((c) => c.key), keepRows, pathname + search], rows)}
          >
            {() => rows.length === 0 ? (
              <TableRow className="hover:bg-transparent">
                <TableCell
                  colSpan={columns.length}
                  className="h-24 text-center whitespace-normal text-muted-foreground"
                >
                  {emptyText}
                </TableCell>
              </TableRow>
            ) : (
              // The same markup as TableRow/TableCell, written out: a page has hundreds of cells.
              rowsMarkup(rows, columns, getRowKey)
            )}
          </KeptTableBody>
        </Table>
      </div>

      <ListPager total={total} page={page} pageSize={pageSize} keyset={keyset} />
    </div>
  );
}

/** A page's rows as `<tr>`s: each column's classes merged once, not once per cell. */
function rowsMarkup<Row>(rows: Row[], columns: DataTableColumn<Row>[], getRowKey: (row: Row) => string | number) {
  const cellClasses = columns.map((column) => (column.className ? cn("dt-cell", column.className) : "dt-cell"));
  return rows.map((row) => (
    <tr key={getRowKey(row)} className="dt-row">
      {columns.map((column, index) => (
        <td key={column.key} className={cellClasses[index]}>
          {column.cell(row)}
        </td>
      ))}
    </tr>
  ));
}

/**
 * The key of a table header's kept markup: everything it renders (headings, sort links to the current
 * URL), or undefined when a heading is not plain text and is rendered every time.
 */
function headKeyOf<Row>(columns: DataTableColumn<Row>[], sort: string | null, dir: SortDirection, url: string) {
  const headings: [string, string | number, string | null, string | null][] = [];
  for (const { key, header, sortKey, className } of columns) {
    if (typeof header !== "string" && typeof header !== "number") return undefined;
    headings.push([key, header, sortKey ?? null, className ?? null]);
  }
  return cacheKeyOf(["table-head", url, sort, dir, headings]);
}

/**
 * The line under a list: how many records match and the 'Anterior' / 'Próxima' links (keyset
 * cursors when the model gives them, else numbered pages). DataTable shows it; a list drawn as
 * cards uses it alone.
 */
export function ListPager({
  total,
  page,
  pageSize,
  keyset,
}: Pick<DataTableProps<unknown>, "total" | "page" | "pageSize" | "keyset">) {
  const hrefWith = useHrefWithParams();
  const { pathname, search } = useLocation();
  const id = useId();
  // Kept per URL and position (ADR 0025): its links are the URL's with the page changed. What it
  // shows is worked out only when it is rendered, not for a page whose pager is kept.
  const cacheKey = cacheKeyOf(["list-pager", pathname + search, total, page, pageSize, keyset ? [keyset.next, keyset.prev, keyset.totalCapped] : null]);
  return (
    <CachedElement
      as="div"
      id={id}
      cacheKey={cacheKey}
      className="flex flex-col gap-2 text-sm text-muted-foreground sm:flex-row sm:items-center sm:justify-between"
    >
      {() => {
        const totalPages = Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
        const capped = keyset?.totalCapped ?? false;
        const currentPage = capped ? Math.max(1, Math.trunc(page) || 1) : Math.min(Math.max(1, Math.trunc(page) || 1), totalPages);
        const pageHref = (target: number) => hrefWith({ page: target <= 1 ? null : String(target), after: null, before: null });
        // With keyset paging the links carry the cursor of the row they continue from.
        const prevHref = !keyset
          ? currentPage > 1 ? pageHref(currentPage - 1) : null
          : currentPage === 2 || (currentPage > 2 && !keyset.prev)
            ? pageHref(1)
            : keyset.prev && currentPage > 1
              ? hrefWith({ page: String(currentPage - 1), before: keyset.prev, after: null })
              : null;
        const nextHref = !keyset
          ? currentPage < totalPages ? pageHref(currentPage + 1) : null
          : keyset.next
            ? hrefWith({ page: String(currentPage + 1), after: keyset.next, before: null })
            : null;
        const plus = capped ? "+" : "";
        return (
          <>
            <p>
              {formatCount(total)}
              {plus} {total === 1 && !capped ? "registro" : "registros"}
            </p>
            {/* Full width on phones (links at both ends), so 'Próxima' is never cut off. */}
            <nav aria-label="Paginação" className="flex min-w-0 flex-wrap items-center justify-between gap-2 sm:justify-end">
              <PageLink to={prevHref} rel="prev">
                <ChevronLeft aria-hidden="true" />
                Anterior
              </PageLink>
              <span className="px-1 text-center whitespace-nowrap">
                Página {formatCount(currentPage)} de {formatCount(totalPages)}
                {plus}
              </span>
              <PageLink to={nextHref} rel="next">
                Próxima
                <ChevronRight aria-hidden="true" />
              </PageLink>
            </nav>
          </>
        );
      }}
    </CachedElement>
  );
}

/** A pagination link, or an inert look-alike when there is nowhere to go. */
export function PageLink({
  to,
  rel,
  children,
}: {
  to: string | null;
  rel: "prev" | "next";
  children: ReactNode;
}) {
  const className = buttonVariants({ variant: "outline", size: "sm" });
  if (to === null) {
    return (
      <span aria-disabled="true" className={className}>
        {children}
      </span>
    );
  }
  return (
    <Link to={to} rel={rel} className={className}>
      {children}
    </Link>
  );
}

export interface SearchFormProps {
  placeholder?: string;
  /** Accessible name of the search box (defaults to the placeholder, or "Buscar"). */
  label?: string;
  /** Name of the query param (default "q"). */
  name?: string;
  /** The params a new search drops (default the list's page and cursors: it starts again at page 1). */
  restart?: readonly string[];
  /** The search landmark's name (default 'Busca na lista'); another search on the same page needs its own. */
  landmark?: string;
  className?: string;
}

const LIST_PAGE_PARAMS = ["page", "after", "before"] as const;

/**
 * A GET search box that keeps the other URL params (except `page`, which restarts at 1).
 * Enter submits (also without JavaScript); with JavaScript typing submits after a 300 ms pause,
 * replacing the history entry so Back does not step through every keystroke. A single character
 * is searched only on Enter: typed, it is the start of a word rather than what is sought, and it
 * is a large practice's dearest search to count (first views: 20-110 ms among 100 000
 * surgeries, 10-40 ms among a million appointments; docs/decisions/0008), time in which the
 * server answers no one else.
 */
export function SearchForm({ placeholder = "Buscar...", label, name = "q", restart = LIST_PAGE_PARAMS, landmark = "Busca na lista", className }: SearchFormProps) {
  const [searchParams] = useSearchParams();
  const { pathname } = useLocation();
  const submit = useSubmit();
  const inputRef = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const query = searchParams.get(name) ?? "";

  // Follow the URL (Back/Forward, links) unless the user is typing in the box.
  useEffect(() => {
    const input = inputRef.current;
    if (input && document.activeElement !== input && input.value !== query) input.value = query;
  }, [query]);

  useEffect(() => () => clearTimeout(timer.current), []);

  // A new search starts again at page 1: page and keyset cursors are dropped.
  const kept = Array.from(searchParams.entries()).filter(([param]) => param !== name && !restart.includes(param));
  const accessibleName = label ?? (placeholder.replace(/(\.{3}|…)$/, "") || "Buscar");

  return (
    // A landmark name of its own ('Busca na lista'), distinct from the header's search landmark
    // and from the box's label, so a label lookup finds the box alone.
    <Form
      method="get"
      action={pathname}
      role="search"
      aria-label={landmark}
      preventScrollReset
      className={cn("relative w-full sm:max-w-sm", className)}
      onSubmit={() => clearTimeout(timer.current)}
    >
      {kept.map(([param, value], index) => (
        <input key={`${param}-${index}`} type="hidden" name={param} value={value} />
      ))}
      <Search
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground"
      />
      <Input
        ref={inputRef}
        type="search"
        name={name}
        defaultValue={query}
        placeholder={placeholder}
        aria-label={accessibleName}
        autoComplete="off"
        className="pl-8"
        onChange={(event) => {
          const form = event.currentTarget.form;
          clearTimeout(timer.current);
          if ([...event.currentTarget.value.trim()].length === 1) return;
          timer.current = setTimeout(() => {
            if (form) submit(form, { replace: true, preventScrollReset: true });
          }, 300);
        }}
      />
    </Form>
  );
}
