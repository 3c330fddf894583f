// `node --import ./tests/support/record-imports.mjs …`: appends the name of every package the
// process imports (a bare specifier, as written) to the file at RECORD_IMPORTS, one per line. ES
// modules loaded have no registry to read afterwards; CommonJS ones are in `require.cache`.
import { register } from "node:module";

register("./record-imports-hooks.mjs", import.meta.url, { data: { file: process.env.RECORD_IMPORTS } });
