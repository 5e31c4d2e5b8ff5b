import "server-only";
// GET /api/v1/journal/coverage (console-api.md "The decision journal"): answered from the
// chunk keys alone (lib/journal/codec.ts names each chunk's span, kind, entries and bytes),
// read by the journal's one reader (lib/journal/reader.ts).
import { journalCoverageAt } from "@/lib/journal/reader";
import type { JournalCoverageResponse } from "@/lib/schema/api/journal";

export async function journalCoverage(nowMs = Date.now()): Promise<JournalCoverageResponse> {
  return (await journalCoverageAt(nowMs)).coverage;
}
