import "server-only";
// GET /api/v1/journal/coverage (console-api.md "The decision journal"): answered from the
// chunk keys alone (lib/journal/codec.ts names each chunk's span, kind, entries and bytes).
import { journalEnv } from "@/lib/config/env";
import { etcdClient, etcdPrefix } from "@/lib/etcd/client";
import { readJournalMarker } from "@/lib/etcd/journal-store";
import { trimmedKey } from "@/lib/schema/keys";
import { coverageOf } from "@/lib/journal/coverage";
import { journalMetas } from "./journal-keys";
import type { JournalCoverageResponse } from "@/lib/schema/api/journal";

/** The byte-cap trim marker's `to_ms` (null: never trimmed, or a value that is not one). */
export function trimmedTo(value: string | null): number | null {
  if (value === null) return null;
  try {
    const to = (JSON.parse(value) as { to_ms?: unknown }).to_ms;
    return typeof to === "number" && Number.isSafeInteger(to) ? to : null;
  } catch {
    return null;
  }
}

export async function journalCoverage(nowMs = Date.now()): Promise<JournalCoverageResponse> {
  const client = etcdClient();
  const prefix = etcdPrefix();
  const [metas, marker] = await Promise.all([journalMetas(), readJournalMarker(client, trimmedKey(prefix))]);
  return coverageOf(metas, trimmedTo(marker), nowMs, journalEnv().retentionMs);
}
