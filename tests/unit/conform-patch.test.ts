// patches/@conform-to+react+1.21.1.patch (applied by `patch-package` after every install): a field's
// or a form's metadata is made once per state, not once per property read, and a name a render has
// already subscribed to is not copied into its subject again. docs/decisions/0008-performance-budget-
// and-server.md, 'Conform's field metadata made once per state'.
import { type SubmissionResult, useForm } from "@conform-to/react";
import { type ReactElement, createElement as h } from "react";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it } from "vitest";
import { Field, SelectField } from "~/components/form-field";

const FIELDS = ["name", "email", "phone", "city", "notes"] as const;

function FiveFields({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useForm({
    id: "five",
    lastResult,
    defaultValue: { name: "Ana", email: "ana@example.com", phone: "", city: "sp", notes: "" },
    constraint: { name: { required: true, maxLength: 80 } },
  });
  return h(
    "form",
    { id: form.id, "aria-describedby": form.errors ? form.errorId : undefined },
    ...FIELDS.filter((name) => name !== "city").map((name) =>
      h(Field, { key: name, meta: fields[name], label: name, hint: name === "phone" ? "Com DDD" : undefined }),
    ),
    h(SelectField, {
      meta: fields.city,
      label: "Cidade",
      options: [
        { value: "sp", label: "São Paulo" },
        { value: "rj", label: "Rio" },
      ],
    }),
  );
}

const RealProxy = globalThis.Proxy;
afterEach(() => {
  globalThis.Proxy = RealProxy;
});

/** Renders on the server, counting the proxies made meanwhile (Conform's metadata are proxies). */
function renderCountingProxies(element: ReactElement) {
  let made = 0;
  globalThis.Proxy = new RealProxy(RealProxy, {
    construct(target, args) {
      made += 1;
      return Reflect.construct(target, args);
    },
  });
  try {
    return { html: renderToString(element), made };
  } finally {
    globalThis.Proxy = RealProxy;
  }
}

describe("Conform, patched", () => {
  it("makes a field's metadata once per render, not once per property read", () => {
    const { html, made } = renderCountingProxies(h(FiveFields));
    expect(html).toContain('value="Ana"');
    // Five fields: each `fields.x` is a proxy and its metadata another, plus the form's: 18 in all.
    // Unpatched, every property a field read made one more: 107.
    expect(made).toBeLessThan(30);
  });

  it("renders the same markup as before: values, constraints, hints, the selected option", () => {
    const html = renderToString(h(FiveFields));
    expect(html).toMatch(/<input[^>]*id="five-name"[^>]*name="five-name"|<input[^>]*name="name"[^>]*>/);
    expect(html).toMatch(/<input[^>]*required=""[^>]*maxLength="80"|<input[^>]*maxLength="80"[^>]*required=""/);
    expect(html).toContain('aria-describedby="five-phone-description"');
    expect(html).toMatch(/<option value="sp" selected="">São Paulo<\/option>/);
  });

  it("shows a submission's errors on its fields, and the values sent", () => {
    const lastResult: SubmissionResult<string[]> = {
      status: "error",
      initialValue: { name: "", email: "x", phone: "", city: "rj", notes: "" },
      error: { name: ["Informe o nome"], email: ["E-mail inválido"] },
    };
    const html = renderToString(h(FiveFields, { lastResult }));
    expect(html).toContain("Informe o nome");
    expect(html).toContain("E-mail inválido");
    expect(html).toMatch(/<input[^>]*aria-invalid="true"[^>]*aria-describedby="five-email-error"[^>]*value="x"/);
    expect(html).toMatch(/<option value="rj" selected="">Rio<\/option>/);
    expect(html).not.toContain('aria-describedby="five-phone-error');
  });
});
