// `npm run bench:malloc`: what glibc's MALLOC_MMAP_THRESHOLD_ (lib/config/server-flags.ts) does
// to a process that churns Buffers the way the console's caches do: buffers of mixed sizes
// (70 % small, 30 % of 0.1–3 MB) kept in a 100 MiB byte-bounded cache, least recently added
// dropped first, with short-lived garbage besides. The same seeded run twice, side by side in
// one process each: glibc's default (a threshold it raises as large blocks are freed) and the
// fixed 128 KiB the server starts with. Prints the resident set and the buffers' bytes every
// 20,000 buffers, and the ratio of their medians.
import { spawnSync } from "node:child_process";
import { MALLOC_MMAP_THRESHOLD } from "../lib/config/server-flags";
import { writeResult } from "./harness";

const SECONDS = Number(process.env.BENCH_MALLOC_S ?? 45);

const CHURN = `
const BOUND = 100 * 2 ** 20, keep = new Map(); let bytes = 0, i = 0, x = 12345;
const r = () => ((x = (x * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
const t0 = Date.now(), points = [];
while (Date.now() - t0 < ${SECONDS} * 1000) {
  const size = r() < 0.7 ? Math.floor(200 + r() * 30000) : Math.floor(100000 + r() * 3000000);
  const b = Buffer.allocUnsafeSlow(size); b.fill(i & 255); keep.set(i++, b); bytes += size;
  while (bytes > BOUND) { const [k, v] = keep.entries().next().value; keep.delete(k); bytes -= v.length; }
  Buffer.allocUnsafeSlow(Math.floor(r() * 500000)).fill(1);
  if (i % 20000 === 0) { gc(); points.push({ s: Math.round((Date.now() - t0) / 1000), rss_mib: Math.round(process.memoryUsage().rss / 2 ** 20), kept_mib: Math.round(bytes / 2 ** 20) }); }
}
console.log(JSON.stringify(points));
`;

/** this environment less any threshold of its own: the default run is glibc's default */
const { MALLOC_MMAP_THRESHOLD_: _own, ...inherited } = process.env;

function run(env: Record<string, string>) {
  const out = spawnSync(process.execPath, ["--expose-gc", "-e", CHURN], {
    env: { ...inherited, ...env },
    encoding: "utf8",
  });
  if (out.status !== 0) throw new Error(out.stderr);
  return JSON.parse(out.stdout.trim()) as { s: number; rss_mib: number; kept_mib: number }[];
}

const glibcDefault = run({});
const fixed = run({ MALLOC_MMAP_THRESHOLD_: MALLOC_MMAP_THRESHOLD });
const median = (p: { rss_mib: number }[]) => {
  const xs = p.map((x) => x.rss_mib).sort((a, b) => a - b);
  return xs.length ? xs[Math.floor((xs.length - 1) / 2)] : Number.NaN;
};
console.log("s    default RSS  fixed RSS  (buffers kept, MiB)");
for (let k = 0; k < Math.min(glibcDefault.length, fixed.length); k++)
  console.log(
    `${String(glibcDefault[k].s).padStart(3)}  ${String(glibcDefault[k].rss_mib).padStart(11)}  ${String(fixed[k].rss_mib).padStart(9)}  (${glibcDefault[k].kept_mib}, ${fixed[k].kept_mib})`,
  );
const ratio = Math.round((median(fixed) / median(glibcDefault)) * 100) / 100;
console.log(
  `resident set, median over the run: default ${median(glibcDefault)} MiB, fixed ${median(fixed)} MiB (× ${ratio})`,
);
writeResult("malloc", { at: new Date().toISOString(), seconds: SECONDS, default: glibcDefault, fixed, ratio });
