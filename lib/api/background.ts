import "server-only";
// Work that runs beside requests, started by the first one (instrumentation.ts belongs to
// the foundation): the shadow-history sampler (one sampling replica per etcd, lib/live).
import { ensureShadowSampler } from "./shadow";

let started = false;

export function startBackground(): void {
  if (started || process.env.CONSOLE_SHADOW_SAMPLER === "off") return;
  started = true;
  try {
    ensureShadowSampler();
  } catch (e) {
    started = false; // configuration not usable yet: the request itself reports it
    void e;
  }
}
