import "server-only";
// Single-key reads, for the few callers that need one key and no paging (the leader record
// for health).
import type { EtcdClient } from "./client";
import { raw } from "./raw";

/** The value of `key` as UTF-8, or null when it does not exist. */
export function readValue(client: EtcdClient, key: string): Promise<string | null> {
  return raw(client).get(key).string();
}
