// Real etcd servers for tests: Debian's `etcd-server` on free loopback ports, data in a
// temp dir, stopped (and the dir removed) by `stop()`. No mocks.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "./ports";
import { until } from "./observe";

const ETCD_BIN = process.env.ETCD_BIN ?? "/usr/bin/etcd";

export interface EtcdMember {
  name: string;
  clientUrl: string;
  peerUrl: string;
  dataDir: string;
  process: ChildProcess | null;
  /** SIGKILL this member (data dir kept, so `start()` brings it back). */
  kill(): Promise<void>;
  start(): Promise<void>;
}

export interface EtcdCluster {
  members: EtcdMember[];
  /** comma-separated client URLs, the form ETCD_ENDPOINTS takes */
  endpoints: string;
  stop(): Promise<void>;
}

async function healthy(clientUrl: string): Promise<boolean> {
  const res = await fetch(`${clientUrl}/health`, { signal: AbortSignal.timeout(1000) });
  if (!res.ok) return false;
  const body = (await res.json()) as { health?: string };
  return body.health === "true";
}

/**
 * Start an etcd cluster of `size` members (1 by default) on loopback.
 * `extraArgs` go to every member (e.g. ["--auto-compaction-retention=0"]).
 */
export async function startEtcd(opts: { size?: number; extraArgs?: string[] } = {}): Promise<EtcdCluster> {
  const size = opts.size ?? 1;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "console-etcd-"));
  const specs: { name: string; clientPort: number; peerPort: number }[] = [];
  for (let i = 0; i < size; i++)
    specs.push({ name: `m${i}`, clientPort: await freePort(), peerPort: await freePort() });
  const initialCluster = specs.map((s) => `${s.name}=http://127.0.0.1:${s.peerPort}`).join(",");

  const members: EtcdMember[] = specs.map((s) => {
    const clientUrl = `http://127.0.0.1:${s.clientPort}`;
    const peerUrl = `http://127.0.0.1:${s.peerPort}`;
    const dataDir = path.join(root, s.name);
    let started = false;
    const member: EtcdMember = {
      name: s.name,
      clientUrl,
      peerUrl,
      dataDir,
      process: null,
      async kill() {
        const p = member.process;
        if (!p || p.exitCode !== null) return;
        await new Promise<void>((resolve) => {
          p.once("exit", () => resolve());
          p.kill("SIGKILL");
        });
        member.process = null;
      },
      async start() {
        const args = [
          "--name",
          s.name,
          "--data-dir",
          dataDir,
          "--listen-client-urls",
          clientUrl,
          "--advertise-client-urls",
          clientUrl,
          "--listen-peer-urls",
          peerUrl,
          "--initial-advertise-peer-urls",
          peerUrl,
          "--initial-cluster",
          initialCluster,
          "--initial-cluster-state",
          started ? "existing" : "new",
          "--initial-cluster-token",
          path.basename(root),
          "--log-level",
          "error",
          "--logger",
          "zap",
          ...(opts.extraArgs ?? []),
        ];
        started = true;
        const child = spawn(ETCD_BIN, args, { stdio: ["ignore", "ignore", "pipe"] });
        let stderr = "";
        child.stderr?.on("data", (d: Buffer) => {
          stderr = (stderr + d.toString()).slice(-4000);
        });
        member.process = child;
        child.once("exit", () => {
          if (member.process === child) member.process = null;
        });
        await new Promise<void>((resolve, reject) => {
          child.once("spawn", () => resolve());
          child.once("error", (e) =>
            reject(new Error(`cannot start ${ETCD_BIN}: ${e.message} (install Debian's etcd-server)`)),
          );
        });
        void stderr;
      },
    };
    return member;
  });

  await Promise.all(members.map((m) => m.start()));
  await Promise.all(
    members.map((m) =>
      until(async () => (await healthy(m.clientUrl)) || undefined, 30_000, { what: `etcd ${m.clientUrl}` }),
    ),
  );

  return {
    members,
    endpoints: members.map((m) => m.clientUrl).join(","),
    async stop() {
      await Promise.all(members.map((m) => m.kill()));
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
