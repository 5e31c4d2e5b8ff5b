import "server-only";
// Journal chunk values, decoded under the decode-time rule (lib/journal/codec.ts): a chunk this
// console cannot read — damaged, or naming a class, verdict code or shadow outcome it does not
// know — is counted (`console_journal_chunks_unreadable_total`), and the question it was read
// for is answered as if the journal did not cover it: history and the diff re-plan, as in a gap;
// the reasons view says the journal does not cover the window. Never a wrong entry, never a crash.
import { decodeChunk, JournalDecodeError, type JournalChunk } from "@/lib/journal/codec";
import { metrics } from "@/lib/metrics";

/** The chunks of `kvs` (in key order), or null when any of them is unreadable. `only`: one table's read. */
export function readableChunks(kvs: readonly { value: Buffer }[], only?: string): JournalChunk[] | null {
  const out: JournalChunk[] = [];
  let unreadable = 0;
  for (const kv of kvs) {
    try {
      out.push(decodeChunk(kv.value, only));
    } catch (e) {
      if (!(e instanceof JournalDecodeError)) throw e;
      unreadable++;
    }
  }
  if (unreadable === 0) return out;
  metrics().journalChunksUnreadable.inc(unreadable);
  return null;
}
