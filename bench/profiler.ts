// The console's CPU profile through its inspector (Profiler domain), for bench/profile-*.ts:
// `profiled(url, run)` profiles the server while `run` drives it, writes the .cpuprofile
// (open it in Chrome DevTools) and returns the self time per function and per file, top 25.
import fs from "node:fs";
import path from "node:path";
import { ws as WebSocket } from "playwright-core/lib/utilsBundle";
import { round } from "./stack";

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

export async function inspector(url: string) {
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => (socket.once("open", () => resolve()), socket.once("error", reject)));
  let next = 0;
  const pending = new Map<number, (r: Record<string, unknown>) => void>();
  socket.on("message", (data: Buffer) => {
    const msg = JSON.parse(data.toString()) as { id?: number; result?: Record<string, unknown> };
    if (msg.id !== undefined) pending.get(msg.id)?.(msg.result ?? {});
  });
  const send = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const id = ++next;
      pending.set(id, resolve);
      socket.send(JSON.stringify({ id, method, params }));
    });
  return { send, close: () => socket.close() };
}

export function summarise(profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, k) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[k] ?? 0) / 1000));
  const fn = new Map<string, number>();
  const file = new Map<string, number>();
  for (const [id, ms] of self) {
    const n = byId.get(id)!;
    const f = n.callFrame.url.replace(/^.*\/(node_modules|\.next)\//, "$1/").replace(/^file:\/\//, "") || "(native)";
    fn.set(
      `${n.callFrame.functionName || "(anonymous)"} ${f}:${n.callFrame.lineNumber}`,
      (fn.get(`${n.callFrame.functionName || "(anonymous)"} ${f}:${n.callFrame.lineNumber}`) ?? 0) + ms,
    );
    file.set(f, (file.get(f) ?? 0) + ms);
  }
  const top = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 25)
      .map(([k, v]) => `${round(v).toString().padStart(8)} ms  ${k}`);
  return { functions: top(fn), files: top(file) };
}

/** Profiles the server at `inspectorUrl` while `run` drives it (after `warm`, unprofiled). */
export async function profiled(
  inspectorUrl: string,
  name: string,
  warm: () => Promise<void>,
  run: () => Promise<void>,
): Promise<string> {
  const ins = await inspector(inspectorUrl);
  await ins.send("Profiler.enable");
  await ins.send("Profiler.setSamplingInterval", { interval: 200 });
  await warm();
  // PROFILE_HEAP=1: what the window allocates, by function (a sampling heap profile, kept even if collected)
  const heap = process.env.PROFILE_HEAP === "1";
  if (heap)
    await ins.send("HeapProfiler.startSampling", {
      samplingInterval: 16384,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  await ins.send("Profiler.start");
  await run();
  const { profile } = (await ins.send("Profiler.stop")) as {
    profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  };
  const at = Date.now();
  if (heap) {
    const { profile: allocations } = (await ins.send("HeapProfiler.stopSampling")) as { profile: unknown };
    fs.writeFileSync(
      path.join(process.env.PROFILE_DIR ?? "/tmp", `${name}-${at}.heapprofile`),
      JSON.stringify(allocations),
    );
  }
  ins.close();
  const out = path.join(process.env.PROFILE_DIR ?? "/tmp", `${name}-${at}.cpuprofile`);
  fs.writeFileSync(out, JSON.stringify(profile));
  const s = summarise(profile);
  return `profile → ${out}\nself time by file:\n${s.files.join("\n")}\nself time by function:\n${s.functions.join("\n")}`;
}
