import type { Route } from "../../routes/+types/settings";

/** What every tab of the settings screen gets from the page. */
export type TabProps = Pick<Route.ComponentProps, "loaderData" | "actionData">;

export { useBusy } from "~/lib/use-busy";
