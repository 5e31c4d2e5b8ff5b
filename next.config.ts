import type { NextConfig } from "next";
import { SECURITY_HEADERS } from "./lib/http/security-headers";

// etcd3 pulls in grpc-js and protobufjs, which must stay plain Node modules:
// bundling them breaks `next build`.
const nextConfig: NextConfig = {
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
