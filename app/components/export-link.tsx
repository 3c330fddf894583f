import { Download } from "lucide-react";
import { buttonVariants } from "~/components/ui/button";

/**
 * 'Exportar CSV': downloads the list as it is searched and filtered (`{list}/export.csv` with the
 * list's own query string). A plain link, so it works without JavaScript.
 */
export function ExportLink({ listHref, label = "Exportar CSV" }: { listHref: string; label?: string }) {
  const [path, search = ""] = listHref.split("?");
  const href = `${path}/export.csv${search ? `?${search}` : ""}`;
  return (
    <a href={href} download className={buttonVariants({ variant: "outline" })}>
      <Download aria-hidden />
      {label}
    </a>
  );
}
