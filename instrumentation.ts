// Next.js start-up hook: the server refuses a bad environment before serving anything
// (console-api.md "Configuration": one line naming the variable, then exit).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { checkEnvOrExit } = await import("./lib/config/check-env");
  checkEnvOrExit();
}
