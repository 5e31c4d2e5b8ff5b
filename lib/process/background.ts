import "server-only";
// Work that runs beside requests, started once per process from instrumentation.ts
// register(), before any request: the first full read and live plan (console-api.md
// Additions "Readiness": ready before traffic), then the elected sampler (shadow history and the revision
// clock, one sampling replica per etcd, lib/live). The hook and the route handlers reach this
// one module through the engine (lib/engine).
import { fleetView } from "@/lib/live/cache";
import { planFor } from "@/lib/live/plan";
import { startMemoryLimit } from "@/lib/live/memory-limit";
import { ensureSampler } from "@/lib/process/sampling";
import { lazily } from "@/lib/util/lazily";

/** retry delays of the first read while etcd is away (doubling, capped) */
const RETRY_FIRST_MS = 200;
const RETRY_MAX_MS = 5000;

interface Background {
  started: boolean;
  /** the first full read and plan are done */
  ready: boolean;
}

const state = lazily<Background>(() => ({ started: false, ready: false }));

/** True once this process has read the fleet and planned it (health `ready`). */
export function isReady(): boolean {
  return state().ready;
}

/** Starts the background work once; later calls do nothing. */
export function startBackground(): void {
  const s = state();
  if (s.started) return;
  s.started = true;
  startMemoryLimit();
  void warmUp(s, RETRY_FIRST_MS);
  try {
    ensureSampler(); // null when CONSOLE_SHADOW_SAMPLER=off
  } catch {
    // the environment was validated at start-up; a sampler that cannot start leaves the
    // history empty, which its own endpoint reports
  }
}

/** The live view and its plan, retried until etcd answers; then the console is ready. */
async function warmUp(s: Background, delayMs: number): Promise<void> {
  try {
    await planFor(await fleetView(), undefined);
    s.ready = true;
  } catch {
    setTimeout(() => void warmUp(s, Math.min(delayMs * 2, RETRY_MAX_MS)), delayMs).unref();
  }
}
