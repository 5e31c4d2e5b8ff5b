// Plain JavaScript, not TypeScript: `next start` transpiles a TypeScript configuration with SWC,
// which loads SWC's native binding into the server process for good. A console started
// against an absent etcd held 143–144 MiB a few seconds after start with a TypeScript
// configuration, 114–115 MiB with this file (docs/operations.md "Memory budget").
import fs from "node:fs";

// etcd3 pulls in grpc-js and protobufjs, which must stay plain Node modules:
// bundling them breaks `next build`.
/** @type {readonly { key: string; value: string }[]} the headers every response carries (lib/http/security-headers.ts) */
const SECURITY_HEADERS = JSON.parse(
  fs.readFileSync(new URL("./lib/http/security-headers.json", import.meta.url), "utf8"),
);

/** @type {import("next").NextConfig} */
const nextConfig = {
  // Separate build dirs let several builds coexist (tests, benchmarks); default `.next`.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  serverExternalPackages: ["etcd3", "prom-client", "@scheduler-console/engine"],
  poweredByHeader: false,
  // scripts/serve.mjs compresses (the same middleware, plus one gzip per cacheable answer)
  compress: false,
  // a build whose CPU profiles name functions (bench/profile-*.ts): CONSOLE_PROFILE_BUILD=1 NEXT_DIST_DIR=.next-prof
  ...(process.env.CONSOLE_PROFILE_BUILD === "1" ? { experimental: { serverMinification: false } } : {}),
  typedRoutes: false,
  // Headers every response carries (pages get their CSP from proxy.ts).
  async headers() {
    return [{ source: "/:path*", headers: [...SECURITY_HEADERS] }];
  },
};

export default nextConfig;
