import "server-only";
// One member's status, for health's per-endpoint probes.
import type { EtcdClient } from "./client";
import { raw } from "./raw";

/** The revision the member behind `client` answers its status with. */
export async function endpointRevision(client: EtcdClient): Promise<number> {
  const status = await raw(client).maintenance.status();
  return Number(status.header.revision);
}
