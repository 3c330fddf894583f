import { type ComponentType, lazy } from "react";

/**
 * `React.lazy` for kit components whose code is loaded on demand (the form dialogs with Conform
 * and zod, the settings tabs with forms), with two additions:
 *
 * - once the module is here, the component renders at once instead of suspending for a tick
 *   (its loader answers with a thenable that resolves synchronously);
 * - `preloadIfShown(selector)`: in the browser, when the server's HTML already shows the
 *   component (a page opened with `?dialog=new`, or a form posted without JavaScript), load it
 *   before the page hydrates. Call it with a top-level `await` in the module that defines the
 *   component: the page module then finishes loading only after it, so hydration runs in one go
 *   as it did before the split, instead of stopping at the component and leaving the server's
 *   markup without its behaviour until the chunk arrives.
 *
 * On the server the component renders inside the page's HTML as any other (there is no Suspense
 * boundary above it, so React waits for it), which keeps everything working with JavaScript off.
 */
export function lazyComponent<Module, Name extends keyof Module>(load: () => Promise<Module>, name: Name) {
  type Props = Module[Name] extends ComponentType<infer P> ? P : never;
  let loaded: Module | undefined;
  let pending: Promise<Module> | undefined;
  const preload = () =>
    (pending ??= load().then(
      (module) => (loaded = module),
      (error: unknown) => {
        pending = undefined; // a failed fetch (offline) is tried again on the next render
        throw error;
      },
    ));
  const Component = lazy<ComponentType<Props>>(() => {
    const ready = loaded;
    const toDefault = (module: Module) => ({ default: module[name] as ComponentType<Props> });
    if (ready) {
      // React reads a thenable that has already called back as resolved: no suspension.
      const thenable = { then: (resolve: (value: { default: ComponentType<Props> }) => void) => resolve(toDefault(ready)) };
      return thenable as unknown as Promise<{ default: ComponentType<Props> }>;
    }
    return preload().then(toDefault);
  });
  async function preloadIfShown(selector: string): Promise<void> {
    if (typeof document !== "undefined" && document.querySelector(selector)) await preload();
  }
  return { Component, preload, preloadIfShown };
}
