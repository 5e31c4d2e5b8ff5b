// Bundles the offload worker (lib/offload/worker.ts) beside Next's build, as
// `<distDir>/offload-worker.cjs`: Next bundles route handlers, not worker threads, so the
// worker is built here from the same sources (`npm run build` runs both). etcd3 (with
// grpc-js and protobufjs) and prom-client stay plain Node modules, as in next.config.ts;
// `server-only` resolves to its empty server build. The bundle is stamped with the BUILD_ID of
// the Next build beside it (`offload-worker.build-id`): the server refuses a worker built from
// other sources than its routes (a `next build` run alone leaves the old worker behind).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const distDir = process.env.NEXT_DIST_DIR || ".next";

const buildId = fs.readFileSync(path.join(root, distDir, "BUILD_ID"), "utf8").trim();
const started = performance.now();
await build({
  entryPoints: [path.join(root, "lib/offload/worker.ts")],
  outfile: path.join(root, distDir, "offload-worker.cjs"),
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  conditions: ["react-server"],
  external: ["etcd3", "@grpc/grpc-js", "prom-client"],
  tsconfig: path.join(root, "tsconfig.json"),
  define: { "process.env.NODE_ENV": '"production"' },
  minifySyntax: true,
  sourcemap: "linked",
  logLevel: "warning",
});
fs.writeFileSync(path.join(root, distDir, "offload-worker.build-id"), buildId);
console.log(
  `offload worker: ${distDir}/offload-worker.cjs for build ${buildId} in ${Math.round(performance.now() - started)} ms`,
);
