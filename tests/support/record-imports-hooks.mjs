// The module hooks of ./record-imports.mjs, in the loader's thread.
import { appendFileSync } from "node:fs";

let file;

export function initialize(data) {
  file = data?.file;
}

export async function resolve(specifier, context, next) {
  // A package's name begins with a letter, a digit or @; a path with . or /, a URL with its scheme.
  if (file && /^[@a-z0-9]/i.test(specifier) && !/^[a-z][\w+.-]*:/i.test(specifier)) appendFileSync(file, `${specifier}\n`);
  return next(specifier, context);
}
