// `npm start`: validate the environment (console-api.md "Configuration"), then run
// the console's server (scripts/serve.mjs: Next's handler and its compression) on $PORT.
// A bad variable prints one line naming it and exits 1.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { tsImport } from "tsx/esm/api";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { loadEnv, memoryBudgetMib } = await tsImport(path.join(root, "lib/config/env.ts"), import.meta.url);
const { serverNodeFlags, serverAllocatorEnv } = await tsImport(
  path.join(root, "lib/config/server-flags.ts"),
  import.meta.url,
);

let env;
try {
  env = loadEnv(process.env);
} catch (e) {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
}

const next = spawn(
  process.execPath,
  [
    ...serverNodeFlags(process.env.NODE_OPTIONS, memoryBudgetMib(process.env)),
    path.join(root, "scripts/serve.mjs"),
    "-p",
    String(env.port),
    ...process.argv.slice(2),
  ],
  {
    cwd: root,
    stdio: "inherit",
    env: { ...serverAllocatorEnv(process.env), ...process.env, PORT: String(env.port) },
  },
);
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => next.kill(signal));
next.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
