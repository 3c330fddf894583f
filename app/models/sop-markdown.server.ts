import { onFirstImport } from "~/.server/on-first-use";

/**
 * A SOP's Markdown as safe HTML, rendered on the server (no Markdown code reaches the browser).
 * Raw HTML in the source is dropped by remark-rehype (it is not passed through), and the result
 * goes through rehype-sanitize's GitHub schema: no <script>, no event handlers, no `javascript:`
 * or `data:` links, `id`s prefixed so they cannot clobber the page's.
 *
 * The pipeline is built by the first SOP read, not when the server starts (app/.server/on-first-use.ts).
 */
const processor = onFirstImport(async () => {
  const [{ unified }, { default: remarkParse }, { default: remarkRehype }, { default: rehypeSanitize }, { default: rehypeStringify }] = await Promise.all([
    import("unified"),
    import("remark-parse"),
    import("remark-rehype"),
    import("rehype-sanitize"),
    import("rehype-stringify"),
  ]);
  return unified().use(remarkParse).use(remarkRehype).use(rehypeSanitize).use(rehypeStringify);
});

export async function renderMarkdown(markdown: string): Promise<string> {
  return String((await processor()).processSync(markdown));
}
