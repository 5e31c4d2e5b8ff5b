// Playwright globalSetup: one stack (etcd + realistic fleet + incidents + `next start`) for
// every spec; its URLs travel to the workers in E2E_STATE. Returns the teardown.
import { startStack } from "./stack";

export default async function globalSetup(): Promise<() => Promise<void>> {
  const started = Date.now();
  const stack = await startStack({ production: true, log: (line) => console.log(`[e2e] ${line}`) });
  process.env.E2E_STATE = JSON.stringify(stack.state);
  console.log(`[e2e] stack up at ${stack.url} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return async () => {
    await stack.stop();
  };
}
