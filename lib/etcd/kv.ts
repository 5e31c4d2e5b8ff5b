import "server-only";
// Single-key reads and writes, for the few callers that need one key and no paging or
// guard (the leader record for health, the simulator's merge progress).
import type { EtcdClient } from "./client";
import { raw } from "./raw";

/** The value of `key` as UTF-8, or null when it does not exist. */
export function readValue(client: EtcdClient, key: string): Promise<string | null> {
  return raw(client).get(key).string();
}

/** Puts `key` = `value` (unguarded, no lease). */
export async function putValue(client: EtcdClient, key: string, value: string): Promise<void> {
  await raw(client).put(key).value(value);
}
