import "server-only";
// The journal's chunk keys, parsed (lib/journal/codec.ts names each chunk's span, kind,
// entries and bytes in its key): what coverage, history, the diff and the reasons view
// choose their chunks from. Held per process: a request first asks whether the keys
// changed (their count and newest mod_revision, two one-key reads), and reads only the
// keys a writer appended since (keys sort by time), or all of them again after a trim.
import { etcdClient, etcdPrefix } from "@/lib/etcd/client";
import { journalKeysVersion, readJournalKeys, readJournalKeysAfter } from "@/lib/etcd/journal-store";
import { journalPrefix, parseChunkKey } from "@/lib/schema/keys";
import { type ChunkMeta } from "@/lib/journal/codec";
import { processWide } from "@/lib/schema/process-wide";

interface Held {
  prefix: string;
  version: string;
  keys: string[];
  metas: ChunkMeta[];
}

const held = processWide("scheduler-console.journal-keys", () => ({ current: null as Held | null }));

const parse = (prefix: string, keys: readonly string[]) =>
  keys.map((k) => parseChunkKey(prefix, k)).filter((m): m is ChunkMeta => m !== null);

export async function journalMetas(): Promise<ChunkMeta[]> {
  const client = etcdClient();
  const prefix = etcdPrefix();
  const base = journalPrefix(prefix);
  const version = await journalKeysVersion(client, base);
  const was = held.current?.prefix === prefix ? held.current : null;
  if (was?.version === version) return was.metas;
  const last = was?.keys.at(-1);
  if (was && last !== undefined) {
    // only appended since: the count says so (a trim or a rewrite reads them all again)
    const appended = await readJournalKeysAfter(client, base, last);
    if (was.keys.length + appended.length === Number(version.split(":")[0])) {
      held.current = {
        prefix,
        version,
        keys: [...was.keys, ...appended],
        metas: [...was.metas, ...parse(prefix, appended)],
      };
      return held.current.metas;
    }
  }
  const keys = await readJournalKeys(client, base);
  held.current = { prefix, version, keys, metas: parse(prefix, keys) };
  return held.current.metas;
}
