// Next.js start-up hook: the server refuses a bad environment before serving anything
// (console-api.md "Configuration": one line naming the variable, then exit).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { loadEnv } = await import("./lib/config/env");
  try {
    loadEnv(process.env);
  } catch (e) {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  }
}
