import { useId } from "react";
import { useLocation } from "react-router";
import { Plus } from "~/components/icons";
import { SearchForm } from "~/components/data-table";
import { ExportLink } from "~/components/export-link";
import { ButtonLink } from "~/components/ui/button";
import { CachedElement, cacheKeyOf } from "~/lib/markup-cache";

/**
 * The row above a list: its search box, and the 'Exportar CSV' and 'Novo …' buttons, each shown only
 * when the server would accept it. The create link opens the URL dialog (`?dialog=new`).
 */
export function ListToolbar({
  search,
  listHref,
  canExport,
  exportLink,
  create,
}: {
  search: { placeholder: string; label: string };
  /** The list's own URL (search, order, filters): what the export downloads. */
  listHref: string;
  canExport: boolean;
  /** The export button's label and the toast its download shows, when not the defaults. */
  exportLink?: { label?: string; successToast?: string };
  /** The create button, when the user may create. */
  create?: { label: string; href: string } | null;
}) {
  const { pathname, search: query } = useLocation();
  const id = useId();
  // Kept per URL (the search box carries the other params along) and props (ADR 0025).
  const cacheKey = cacheKeyOf(["list-toolbar", pathname + query, search, listHref, canExport, exportLink ?? null, create ?? null]);
  return (
    <CachedElement as="div" id={id} cacheKey={cacheKey} className="flex flex-wrap items-center justify-between gap-3">
      {() => (
        <>
          <SearchForm placeholder={search.placeholder} label={search.label} className="w-full max-w-md" />
          <div className="flex flex-wrap gap-2">
            {canExport ? <ExportLink listHref={listHref} {...exportLink} /> : null}
            {create ? (
              <ButtonLink to={create.href} preventScrollReset>
                <Plus aria-hidden />
                {create.label}
              </ButtonLink>
            ) : null}
          </div>
        </>
      )}
    </CachedElement>
  );
}
