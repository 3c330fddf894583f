import { useNavigation } from "react-router";

/** The `intent` of the form on its way: submitted and not yet settled (its action, then the page it led to). */
export function useSubmittingIntent(): string | null {
  const navigation = useNavigation();
  const intent =
    navigation.state === "idle" ? null : navigation.formData?.get("intent");
  return typeof intent === "string" ? intent : null;
}

/** Whether the form posting `intent` is on its way (its button shows 'Salvando...' and stays disabled). */
export function useBusy(intent: string) {
  return useSubmittingIntent() === intent;
}
