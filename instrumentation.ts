// Next.js start-up hook, run once when the server process starts: a bad environment is
// refused before anything is served (console-api.md "Configuration": one line naming the
// variable, then exit), then the background work starts, the first full read and plan
// among it, so the console is ready before its first request (console-api.md "Readiness").
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { checkEnvOrExit } = await import("./lib/config/check-env");
  checkEnvOrExit();
  if (process.env.NEXT_PHASE === "phase-production-build") return; // `next build` serves nothing
  const { startBackground } = await import("./lib/process/background");
  startBackground();
}
