// The V8 inspector of a server started with `startApp(…, { inspect: true })`, over the
// Chrome DevTools Protocol: force a full GC and read the heap in use, i.e. the live set.
// Between GCs the heap in use swings by ~100 MiB under load and RSS keeps freed pages, so
// only this shows a leak within seconds. (`ws` comes bundled with playwright-core.)
import fs from "node:fs";
import path from "node:path";
import { ws as WebSocket } from "playwright-core/lib/utilsBundle";

type Send = (method: string, params?: Record<string, unknown>) => Promise<Record<string, unknown>>;
type OnEvent = (method: string, params: Record<string, unknown>) => void;

async function withInspector<T>(url: string, use: (send: Send) => Promise<T>, onEvent?: OnEvent): Promise<T> {
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  let next = 0;
  const pending = new Map<number, { resolve: (r: Record<string, unknown>) => void; reject: (e: Error) => void }>();
  socket.on("message", (data: Buffer) => {
    const msg = JSON.parse(data.toString()) as {
      id?: number;
      method?: string;
      params?: Record<string, unknown>;
      result?: Record<string, unknown>;
      error?: { message: string };
    };
    if (msg.method) onEvent?.(msg.method, msg.params ?? {});
    const waiter = msg.id === undefined ? undefined : pending.get(msg.id);
    if (!waiter) return;
    pending.delete(msg.id!);
    if (msg.error) waiter.reject(new Error(`inspector: ${msg.error.message}`));
    else waiter.resolve(msg.result ?? {});
  });
  const send: Send = (method, params = {}) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = ++next;
      pending.set(id, { resolve, reject });
      socket.send(JSON.stringify({ id, method, params }));
    });
  try {
    return await use(send);
  } finally {
    socket.close();
  }
}

/** Bytes of V8 heap in use right after a forced full GC (two, so weak callbacks run). */
export function liveHeapBytes(inspectorUrl: string): Promise<number> {
  return withInspector(inspectorUrl, async (send) => {
    await send("HeapProfiler.collectGarbage");
    await send("HeapProfiler.collectGarbage");
    const usage = await send("Runtime.getHeapUsage");
    return Number(usage.usedSize);
  });
}

/**
 * An expression that calls `call` on the server's engine (lib/engine/index.ts): the one module
 * the process loaded through the `@scheduler-console/engine` package, which `require` hands back
 * from Node's module cache, not a second copy.
 */
export const inEngine = (call: string) => `require("@scheduler-console/engine").${call}`;

/** the custom server's gzip cache module (scripts/gzip-cache.mjs) */
const GZIP_CACHE_FILE = path.resolve(__dirname, "../../scripts/gzip-cache.mjs");

/**
 * An expression of the server's gzip counters (`hits`, `misses`, `clear()`), e.g.
 * `${inGzipCache("hits")}`. Node loads an ES module once per URL, and `require` of one
 * (Node 20.19 and later) answers that same instance: the server's, not a copy.
 */
export const inGzipCache = (member: string) => `require(${JSON.stringify(GZIP_CACHE_FILE)}).gzipCounters.${member}`;

/**
 * Runs `expression` in the server's main context and returns its JSON value: tests reach the
 * engine's state (`inEngine`) without a test-only route in the product.
 */
export function evaluateInServer(inspectorUrl: string, expression: string): Promise<unknown> {
  return withInspector(inspectorUrl, async (send) => {
    // the command line API brings `require` (from the server's working folder): `inEngine` uses it
    const out = await send("Runtime.evaluate", {
      expression,
      returnByValue: true,
      awaitPromise: true,
      includeCommandLineAPI: true,
    });
    const thrown = out.exceptionDetails as { text?: string; exception?: { description?: string } } | undefined;
    if (thrown) throw new Error(`server threw: ${thrown.exception?.description ?? thrown.text}`);
    return (out.result as { value?: unknown } | undefined)?.value;
  });
}

/**
 * The server keeps caches by design that fill with use, each bounded by bytes: two of answers
 * (the encoded answers, lib/http/encoded-response.ts, 64 MiB; their gzip, scripts/serve.mjs,
 * 16 MiB) and the changes the live view keeps to put back recent revisions
 * (lib/live/change-log.ts, a 64th of the budget), which fills as etcd is written. Under load
 * they fill for minutes: in the CI smoke run (~17,000 requests in 15 s) the answer caches
 * held ~4,700 and ~2,800 entries, 2.7 MiB of heap besides their bytes, and with the direct
 * reads (~20,000 requests) the change log 2.3 MiB of a 3.3 MiB rise (a heap snapshot diff),
 * more than the 5 % that run allows the live heap to grow. This empties them, then reads the
 * live heap, so that their filling is not read as a leak; what they hold is capped by their
 * own weight.
 */
export async function liveHeapWithoutAnswerCaches(inspectorUrl: string): Promise<number> {
  const emptied = await evaluateInServer(
    inspectorUrl,
    `(() => {
      ${inEngine("clearEncodedResponses()")};
      ${inEngine("forgetRecentChanges()")};
      ${inGzipCache("clear()")};
      return true;
    })()`,
  );
  if (emptied !== true) throw new Error("the server's answer caches were not emptied");
  return liveHeapBytes(inspectorUrl);
}

/**
 * Writes a heap snapshot of the server to `file` (after a forced full GC: the live set),
 * streamed chunk by chunk as the inspector sends it; bench/heap-diff.ts compares two.
 */
export async function writeHeapSnapshot(inspectorUrl: string, file: string): Promise<void> {
  const out = fs.createWriteStream(file);
  await withInspector(
    inspectorUrl,
    async (send) => {
      await send("HeapProfiler.enable");
      await send("HeapProfiler.collectGarbage");
      await send("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
    },
    (method, params) => {
      if (method === "HeapProfiler.addHeapSnapshotChunk") out.write(String(params.chunk));
    },
  );
  await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
}
