import "server-only";
// The shadow-history samples with the canary's extras (./canary-sample.ts), read from
// `P/console/shadow-history/` — the sampler's own keys (lib/live/sampler.ts). Values that are
// not a sample are left out, as the history's read does.
import { canarySampleSchema, type CanarySample } from "@/lib/schema/api/canary";
import { etcdClient, etcdPrefix } from "@/lib/etcd/client";
import { toEtcdError } from "@/lib/etcd/errors";
import { readPrefixPaged } from "@/lib/etcd/paged-read";
import { historyKey, historyPrefix } from "@/lib/schema/keys";
import { MAX_SAMPLE_CHARS } from "@/lib/live/sampler";

function parseCanarySample(value: string): CanarySample | null {
  if (value.length > MAX_SAMPLE_CHARS) return null;
  try {
    const parsed = canarySampleSchema.safeParse(JSON.parse(value));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Samples in [fromMs, toMs], oldest first; with `revision`, those written by that revision (a pinned report's). */
export async function readCanaryHistory(fromMs: number, toMs: number, revision?: number): Promise<CanarySample[]> {
  const prefix = etcdPrefix();
  try {
    const { kvs } = await readPrefixPaged(etcdClient(), historyPrefix(prefix), {
      startKey: Buffer.from(historyKey(prefix, fromMs)),
      probePrefix: prefix,
      revision,
    });
    const end = historyKey(prefix, toMs);
    const samples: CanarySample[] = [];
    for (const kv of kvs) {
      if (kv.key > end) break;
      const sample = parseCanarySample(kv.value.toString("utf8"));
      if (sample) samples.push(sample);
    }
    return samples;
  } catch (e) {
    throw toEtcdError(e, "read shadow history");
  }
}
