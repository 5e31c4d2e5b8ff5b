// How the load run's clients ask (test/support/load-driver.ts). The clients share the
// machine with the server they measure (two cores here), so what a client does with an
// answer is CPU the server does not get:
// * "bytes" (the default): node:http over one keep-alive agent, gzip accepted as a browser
//   accepts it, timed to the answer's last byte, as a load generator times it (wrk,
//   autocannon). Its bodies are not decoded on the way; one 200 in SPOT_CHECK_EVERY is
//   gunzipped and parsed after its time is taken, and one that is not JSON counts as an
//   error, so a broken answer still fails the run.
// * "parsed": the page's way, `fetch` then `JSON.parse`, timed after the parse; its clients
//   take most of a core here (bench/figures.ts runs both side by side and prints each one's CPU).
import http from "node:http";
import zlib from "node:zlib";
import { getJson } from "./observe";

export type LoadClientKind = "bytes" | "parsed";

interface LoadReply {
  status: number;
  ms: number;
  /** what went wrong, for the run's error samples (a network error, a non-200's body, a body that is not JSON) */
  problem?: string;
}

export interface LoadClient {
  get(url: string): Promise<LoadReply>;
  close(): void;
}

/** one 200 in this many has its body decoded and parsed (after its time is taken) */
const SPOT_CHECK_EVERY = 50;
const TIMEOUT_MS = 30_000;

function decoded(body: Buffer, encoding: string | undefined): string {
  return (encoding === "gzip" ? zlib.gunzipSync(body) : body).toString("utf8");
}

function bytesClient(clients: number): LoadClient {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  let answered = 0;
  const get = (url: string) =>
    new Promise<LoadReply>((resolve) => {
      const started = performance.now();
      const req = http.get(url, { agent, headers: { "accept-encoding": "gzip" } }, (res) => {
        const status = res.statusCode ?? 0;
        // only a body that is read is kept: a non-200's, and the spot-checked 200's
        const checked = status !== 200 || ++answered % SPOT_CHECK_EVERY === 0;
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => checked && chunks.push(c));
        res.on("error", (e) => resolve({ status: 0, ms: performance.now() - started, problem: e.message }));
        res.on("end", () => {
          const ms = performance.now() - started;
          if (!checked) return resolve({ status, ms });
          const encoding = res.headers["content-encoding"];
          const body = Buffer.concat(chunks);
          if (status !== 200) {
            let text: string;
            try {
              text = decoded(body, encoding);
            } catch (e) {
              text = `(undecodable body: ${(e as Error).message})`;
            }
            return resolve({ status, ms, problem: text.slice(0, 200) });
          }
          try {
            JSON.parse(decoded(body, encoding));
          } catch (e) {
            return resolve({ status: 0, ms, problem: `a 200 whose body is not JSON: ${(e as Error).message}` });
          }
          resolve({ status, ms });
        });
      });
      req.setTimeout(TIMEOUT_MS, () => req.destroy(new Error(`no answer in ${TIMEOUT_MS} ms`)));
      req.on("error", (e) => resolve({ status: 0, ms: performance.now() - started, problem: e.message }));
    });
  return { get, close: () => agent.destroy() };
}

const parsedClient: LoadClient = {
  async get(url) {
    const res = await getJson(url, { timeoutMs: TIMEOUT_MS });
    return res.status === 200
      ? { status: 200, ms: res.ms }
      : { status: res.status, ms: res.ms, problem: res.networkError ?? JSON.stringify(res.body).slice(0, 200) };
  },
  close() {},
};

export function loadClient(kind: LoadClientKind, clients: number): LoadClient {
  return kind === "bytes" ? bytesClient(clients) : parsedClient;
}
