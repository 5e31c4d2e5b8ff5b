import "server-only";
// One member's status, for health's per-endpoint probes.
import type { EtcdClient } from "./client";
import { raw } from "./raw";

export interface EndpointStatus {
  /** the revision the member answers its status with */
  revision: number;
  /**
   * whether the member knows a leader: one that lost quorum (the others dead, or it cut off
   * from them) still answers its status, with no leader and the error "etcdserver: no leader",
   * but serves no linearizable read and cannot tell that what it holds is current
   */
  hasLeader: boolean;
}

/** The status of the member behind `client`. */
export async function endpointStatus(client: EtcdClient): Promise<EndpointStatus> {
  const status = await raw(client).maintenance.status();
  return { revision: Number(status.header.revision), hasLeader: String(status.leader ?? "0") !== "0" };
}
