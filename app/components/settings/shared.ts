import { useNavigation } from "react-router";
import type { Route } from "../../routes/+types/settings";

/** What every tab of the settings screen gets from the page. */
export type TabProps = Pick<Route.ComponentProps, "loaderData" | "actionData">;

/** Whether the form of `intent` is being submitted. */
export function useBusy(intent: string) {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
}
