import "server-only";
// Work that runs beside requests, started by the first one (instrumentation.ts belongs to
// the foundation): the elected sampler (shadow history and the revision clock, one sampling replica per etcd).
import { ensureSampler } from "./sampling";

let started = false;

export function startBackground(): void {
  if (started) return;
  started = true;
  try {
    ensureSampler();
  } catch (e) {
    started = false; // configuration not usable yet: the request itself reports it
    void e;
  }
}
