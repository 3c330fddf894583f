import type { Submission } from "@conform-to/dom";
import { useEffect, useState } from "react";
import type { $ZodType, input, output } from "zod/v4/core";

type ValidateOn = "onSubmit" | "onBlur" | "onInput";

/**
 * Browser-side validation for a form that is on the page from the first load (sign-in, settings),
 * without zod in the page's first-load JavaScript (≈28 KB gzipped with Conform's zod adapter).
 *
 * The schema's module and `parseWithZod` are imported once the page has hydrated. Until they
 * arrive the form validates nothing itself and a submit goes to the server, which answers with
 * the same schema's messages (exactly what happens with JavaScript off); from then on it
 * validates as `shouldValidate`/`shouldRevalidate` say. Spread the result into `useForm`:
 *
 *   const validation = useLazyValidation(() => import("~/validation/auth"), (m) => m.loginSchema, { shouldRevalidate: "onInput" });
 *   const [form, fields] = useForm({ id: "login", lastResult, ...validation });
 *
 * `pick` runs on every render, so a schema built from loader data (a minimum password length)
 * follows it. Dialogs do not need this: they are loaded whole on first open (PatientDialog).
 */
export function useLazyValidation<Module, Schema extends $ZodType>(
  load: () => Promise<Module>,
  pick: (module: Module) => Schema,
  { shouldValidate = "onSubmit", shouldRevalidate = shouldValidate }: { shouldValidate?: ValidateOn; shouldRevalidate?: ValidateOn } = {},
): {
  onValidate?: (context: { formData: FormData }) => Submission<input<Schema>, string[], output<Schema>>;
  shouldValidate: ValidateOn;
  shouldRevalidate: ValidateOn;
} {
  const [loaded, setLoaded] = useState<{ module: Module; parse: typeof import("@conform-to/zod/v4").parseWithZod } | null>(null);
  useEffect(() => {
    let cancelled = false;
    void Promise.all([load(), import("@conform-to/zod/v4")]).then(([module, zod]) => {
      if (!cancelled) setLoaded({ module, parse: zod.parseWithZod });
    });
    return () => {
      cancelled = true;
    };
    // Loaded once per mount: `load` is a new closure on every render but always the same module.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  // Before the schema is here, only a submit may trigger anything (and it goes to the server):
  // validating on blur without `onValidate` would make Conform post the form to ask the server.
  if (!loaded) return { shouldValidate: "onSubmit", shouldRevalidate: "onSubmit" };
  const schema = pick(loaded.module);
  return {
    onValidate: ({ formData }) => loaded.parse(formData, { schema }),
    shouldValidate,
    shouldRevalidate,
  };
}
