import rehypeSanitize from "rehype-sanitize";
import rehypeStringify from "rehype-stringify";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified } from "unified";

/**
 * A SOP's Markdown as safe HTML, rendered on the server (no Markdown code reaches the browser).
 * Raw HTML in the source is dropped by remark-rehype (it is not passed through), and the result
 * goes through rehype-sanitize's GitHub schema: no <script>, no event handlers, no `javascript:`
 * or `data:` links, `id`s prefixed so they cannot clobber the page's.
 */
const processor = unified().use(remarkParse).use(remarkRehype).use(rehypeSanitize).use(rehypeStringify);

export function renderMarkdown(markdown: string): string {
  return String(processor.processSync(markdown));
}
