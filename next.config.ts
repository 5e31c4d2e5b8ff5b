import type { NextConfig } from "next";

// etcd3 pulls in grpc-js and protobufjs, which must stay plain Node modules:
// bundling them breaks `next build`.
const nextConfig: NextConfig = {
  serverExternalPackages: ["etcd3", "prom-client"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
