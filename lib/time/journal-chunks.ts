import "server-only";
// Journal chunk values, decoded under the decode-time rule (lib/journal/codec.ts): a chunk this
// console cannot read — damaged, or naming a class, verdict code or shadow outcome it does not
// know — is counted (`console_journal_chunks_unreadable_total`), and the question it was read
// for is answered as if the journal did not cover it: history and the diff re-plan, as in a gap;
// the reasons view says the journal does not cover the window. Never a wrong entry, never a crash.
//
// One table's decode of a chunk (`only`: a table's history) is kept per process: a key at one
// mod_revision holds one value in etcd, so its decode for one table never changes. A busy
// table's 6 h is ~50 chunks, and decoding them was most of a warm history request (120–590 ms
// of it on the 2-CPU bench machine, the more the busier the machine). A chunk rewritten
// under the same key has another mod_revision, and is decoded afresh.
import { decodeChunk, JournalDecodeError, type JournalChunk } from "@/lib/journal/codec";
import { metrics } from "@/lib/metrics";
import { BoundedMap } from "@/lib/schema/bounded-map";
import { processWide } from "@/lib/schema/process-wide";

/** Rows kept (a one-table decode weighs its evaluations and the rows it built): ~50 MB at most. */
const KEPT_ROWS = 400_000;

const weigh = (c: JournalChunk) => c.evaluations.reduce((n, e) => n + 1 + e.changed.size + e.removed.length, 0);

const ONE_TABLE = processWide(
  "console.journal.oneTableChunks",
  () => new BoundedMap<string, JournalChunk>({ evict: "least-recently-used", weigh, maxWeight: KEPT_ROWS }),
);

/** A stored chunk; with its key and mod_revision, a one-table decode is kept. */
interface StoredChunk {
  value: Buffer;
  key?: string;
  modRevision?: number;
}

function decoded(kv: StoredChunk, only?: string): JournalChunk {
  if (only === undefined || kv.key === undefined || kv.modRevision === undefined) return decodeChunk(kv.value, only);
  const id = `${kv.key}\u0000${kv.modRevision}\u0000${only}`;
  const kept = ONE_TABLE.get(id);
  if (kept) return kept;
  const chunk = decodeChunk(kv.value, only);
  ONE_TABLE.set(id, chunk);
  return chunk;
}

/** The chunks of `kvs` (in key order), or null when any of them is unreadable. `only`: one table's read. */
export function readableChunks(kvs: readonly StoredChunk[], only?: string): JournalChunk[] | null {
  const out: JournalChunk[] = [];
  let unreadable = 0;
  for (const kv of kvs) {
    try {
      out.push(decoded(kv, only));
    } catch (e) {
      if (!(e instanceof JournalDecodeError)) throw e;
      unreadable++;
    }
  }
  if (unreadable === 0) return out;
  metrics().journalChunksUnreadable.inc(unreadable);
  return null;
}
