// Next.js start-up hook, run once when the server process starts: a bad environment is
// refused before anything is served (console-api.md "Configuration": one line naming the
// variable, then exit), then the background work starts, the first full read and plan
// among it, so the console is ready before its first request (console-api.md "Readiness").
// Both are the engine's (lib/engine/index.ts), the one copy of the process's state.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { checkEnvOrExit, startBackground } = await import("@scheduler-console/engine");
  checkEnvOrExit();
  if (process.env.NEXT_PHASE === "phase-production-build") return; // `next build` serves nothing
  startBackground();
}
