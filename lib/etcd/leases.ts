import "server-only";
// Leases for the simulator's short-lived keys (the console's own are lib/etcd/election.ts).
import type { EtcdClient } from "./client";
import { raw } from "./raw";

/** A lease kept alive until revoked or lost, with puts on it. */
export interface KeptLease {
  /** grants the lease: its id */
  grant(): Promise<string>;
  revoked(): boolean;
  revoke(): Promise<void>;
  /** puts `key` = `value` on this lease */
  put(key: string, value: string): Promise<void>;
}

/** A lease of `ttlSecs` kept alive; `onLost` is told when etcd lets it expire. */
export function keptLease(client: EtcdClient, ttlSecs: number, onLost: (e: Error) => void): KeptLease {
  const lease = raw(client).lease(ttlSecs, { autoKeepAlive: true });
  lease.on("lost", onLost);
  return {
    grant: () => lease.grant(),
    revoked: () => lease.revoked(),
    revoke: async () => {
      await lease.revoke();
    },
    put: async (key, value) => {
      await lease.put(key).value(value);
    },
  };
}

/** Grants a lease of `ttlSecs` that is not kept alive: its id. */
export async function grantLease(client: EtcdClient, ttlSecs: number): Promise<string> {
  const granted = await raw(client).leaseClient.leaseGrant({ TTL: ttlSecs });
  return String(granted.ID);
}
