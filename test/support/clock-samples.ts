// Revision-clock samples written by a test, as the elected sampler writes them
// (lib/live/sampler.ts, console-api.md "Time"): a sample (t, r) says revision r was written by
// wall time t. A test that writes its own (with the consoles' sampler off) fixes how every
// console dates its revisions, in the past if it likes: a merge that "stalled 25 minutes ago".
import type { Etcd3 } from "etcd3";
import { clockKey } from "@/lib/schema/keys";

/** The store's current revision. */
export async function headRevision(client: Etcd3, prefix: string): Promise<number> {
  return Number((await client.get(`${prefix}/`).exec()).header.revision);
}

/** Writes the sample (`atMs`, the current revision, or `revision`) and returns the revision it names. */
export async function writeClockSample(
  client: Etcd3,
  prefix: string,
  atMs: number,
  revision?: number,
): Promise<number> {
  const named = revision ?? (await headRevision(client, prefix));
  await client
    .put(clockKey(prefix, atMs))
    .value(JSON.stringify({ at_ms: atMs, revision: named }))
    .exec();
  return named;
}

/** The time the revision clock gives a revision between two samples' times (the middle, lib/live/revision-clock.ts). */
export const betweenSamples = (loMs: number, hiMs: number) => loMs + Math.ceil((hiMs - loMs) / 2);
