// The console's two bundles built apart from Next's route chunks, from the same sources
// (`npm run build` runs `bundle.mjs engine`, then `next build`, then `bundle.mjs worker`):
// * `engine`: the stateful core (lib/engine/index.ts) as `.next-engine/engine.cjs` (`<distDir>-engine`), which
//   the `@scheduler-console/engine` package loads once per process (packages/engine). It is
//   built before `next build`, which loads the route modules (and so the engine), and outside
//   `<distDir>`, which `next build` empties first.
// * `worker`: the offload worker (lib/offload/worker.ts) as `<distDir>/offload-worker.cjs`; Next
//   bundles route handlers, not worker threads.
// etcd3 (with grpc-js and protobufjs) and prom-client stay plain Node modules, as in
// next.config.mjs; `server-only` resolves to its empty server build. Both bundles are stamped
// with the BUILD_ID of the Next build beside them (`*.build-id`, written by `worker`): the
// server refuses bundles built from other sources than its routes (scripts/serve.mjs).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const distDir = path.resolve(root, process.env.NEXT_DIST_DIR || ".next");
const engineDir = `${distDir}-engine`;
const BUNDLES = {
  engine: { entry: "lib/engine/index.ts", outfile: path.join(engineDir, "engine.cjs") },
  worker: { entry: "lib/offload/worker.ts", outfile: path.join(distDir, "offload-worker.cjs") },
};
const which = process.argv[2];
const bundle = BUNDLES[which];
if (!bundle) {
  console.error(`usage: node scripts/bundle.mjs ${Object.keys(BUNDLES).join("|")}`);
  process.exit(2);
}

const started = performance.now();
await build({
  entryPoints: [path.join(root, bundle.entry)],
  outfile: bundle.outfile,
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  conditions: ["react-server"],
  external: ["etcd3", "@grpc/grpc-js", "prom-client"],
  tsconfig: path.join(root, "tsconfig.json"),
  define: { "process.env.NODE_ENV": '"production"' },
  minifySyntax: true,
  // a build whose CPU profiles name functions (bench/profile-*.ts), as next.config.mjs
  keepNames: process.env.CONSOLE_PROFILE_BUILD === "1",
  sourcemap: "linked",
  logLevel: "warning",
});
let stamped = "";
if (which === "worker") {
  const buildId = fs.readFileSync(path.join(distDir, "BUILD_ID"), "utf8").trim();
  fs.writeFileSync(path.join(distDir, "offload-worker.build-id"), buildId);
  fs.writeFileSync(path.join(engineDir, "engine.build-id"), buildId);
  stamped = ` (both stamped for build ${buildId})`;
}
console.log(
  `${which}: ${path.relative(root, bundle.outfile)}${stamped} in ${Math.round(performance.now() - started)} ms`,
);
