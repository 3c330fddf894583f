import type { ReactNode } from "react";
import type { KpiReport } from "~/lib/kpi";
import { CachedElement, cacheKeyOf } from "~/lib/markup-cache";

/**
 * A KPI screen's figures and charts. Their server markup reads only the report (kept unchanged
 * until the next write, app/.server/kpi.ts), the screen's path and the export links' query (null
 * without the right to export), so it is rendered once per report and kept until then
 * (docs/decisions/0025-cached-shell-markup.md). Their ids come from the report, not from useId.
 */
export function KpiReportBody({
  path,
  report,
  exportQuery,
  children,
}: {
  path: string;
  report: KpiReport;
  exportQuery: string | null;
  children: () => ReactNode;
}) {
  return (
    <CachedElement as="div" id="kpi-report" className="space-y-6" cacheKey={cacheKeyOf(["kpi-report", path, exportQuery], report)}>
      {children}
    </CachedElement>
  );
}
