// The simulator writes fake fleet data: it refuses any etcd that is not on this machine
// unless the operator says `--force-remote`.
import net from "node:net";

export function isLoopbackEndpoint(endpoint: string): boolean {
  let host: string;
  try {
    host = new URL(endpoint).hostname.replace(/^\[|\]$/g, "");
  } catch {
    return false;
  }
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (net.isIPv4(host)) return host.startsWith("127.");
  if (net.isIPv6(host)) return host === "::1";
  return false;
}

export class RemoteEndpointRefused extends Error {
  readonly code = "remote_endpoint_refused";
  constructor(endpoint: string) {
    super(`refusing to write simulated data to non-loopback etcd ${endpoint} (pass --force-remote to allow)`);
    this.name = "RemoteEndpointRefused";
  }
}

export function assertLoopback(endpoints: string[], forceRemote = false): void {
  if (forceRemote) return;
  const remote = endpoints.find((e) => !isLoopbackEndpoint(e));
  if (remote !== undefined) throw new RemoteEndpointRefused(remote);
}
