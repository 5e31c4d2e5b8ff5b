#!/usr/bin/env node
// `npx scheduler-console …`: the command line runs its TypeScript through tsx (a
// devDependency), so a fresh clone needs `npm ci` and no build step.
import { tsImport } from "tsx/esm/api";

const { run } = await tsImport("../lib/cli/main.ts", {
  parentURL: import.meta.url,
  tsconfig: new URL("../tsconfig.json", import.meta.url).pathname,
});
const write = (stream) => (text) => stream.write(text);
process.exitCode = await run(process.argv.slice(2), {
  out: write(process.stdout),
  err: write(process.stderr),
  env: process.env,
});
