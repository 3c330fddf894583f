import { Download } from "~/components/icons";
import { buttonVariants } from "~/components/ui/button";

/**
 * 'Exportar CSV': downloads the list as it is searched and filtered (`{list}/export.csv` with the
 * list's own query string). A plain link, so it works without JavaScript.
 */
export function ExportLink({
  listHref,
  label = "Exportar CSV",
  successToast,
}: {
  listHref: string;
  label?: string;
  /** A toast shown when the download starts (with JavaScript; the toast library loads on demand). */
  successToast?: string;
}) {
  const [path, search = ""] = listHref.split("?");
  const href = `${path}/export.csv${search ? `?${search}` : ""}`;
  const onClick = successToast ? () => void import("sonner").then(({ toast }) => toast.success(successToast)) : undefined;
  return (
    <a href={href} download className={buttonVariants({ variant: "outline" })} onClick={onClick}>
      <Download aria-hidden />
      {label}
    </a>
  );
}
