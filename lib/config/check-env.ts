// Node-only start-up check (imported by instrumentation.ts under the nodejs runtime):
// a bad environment prints one line naming the variable, then the process exits.
import { loadEnv } from "./env";

export function checkEnvOrExit(): void {
  try {
    loadEnv(process.env);
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  }
}
