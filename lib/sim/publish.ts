// Demand publication as every publisher does it (§3.5): read the stored event, join,
// compare-and-swap on its mod_revision; up to 5 attempts.
import type { EtcdClient as Etcd3 } from "@/lib/etcd/client";
import { casPut, getStored } from "@/lib/etcd/cas";
import { joinStoredValue } from "@/lib/planner/join";
import type { DemandEvent } from "@/lib/schema/demand";
import { keys } from "@/lib/schema/keys";

const PUBLISH_ATTEMPTS = 5;

class PublishError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PublishError";
  }
}

/** true = stored a new record; false = the join changed nothing. */
export async function publishDemandEvent(
  client: Etcd3,
  prefix: string,
  target: string,
  event: DemandEvent,
): Promise<boolean> {
  const key = keys.demandEvent(prefix, target, event.shard);
  let stored = await getStored(client, key);
  for (let attempt = 1; attempt <= PUBLISH_ATTEMPTS; attempt++) {
    const joined = joinStoredValue(stored?.value ?? null, event);
    if (joined.kind === "unchanged") return false;
    if (joined.kind === "error") throw new PublishError(joined.message);
    const cas = await casPut(client, key, joined.value, stored?.modRevision ?? 0);
    if (cas.ok) return true;
    stored = cas.current;
  }
  throw new PublishError(`publish ${key}: kept losing to concurrent writes`);
}
