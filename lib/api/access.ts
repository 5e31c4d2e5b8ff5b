import "server-only";
// Read access for the scheduler endpoints (console-api.md "Security": reads are open, or
// need a viewer token when CONSOLE_VIEWER_TOKENS is set). lib/auth (H6) decides; this
// module is the one place the wrapper asks, so the wiring lives here and nowhere else.
import { readGate } from "@/lib/auth/read-gate";

/** Answers null when the request may read, or the error Response to send instead. */
export type ReadAuthorizer = (request: Request) => Promise<Response | null>;

const KEY = Symbol.for("scheduler-console.read-authorizer");
type Slot = { authorize: ReadAuthorizer };

function slot(): Slot {
  const g = globalThis as unknown as Record<symbol, Slot | undefined>;
  return (g[KEY] ??= { authorize: readGate });
}

/** Replaces the read check (used to plug lib/auth in, and by tests). */
export function setReadAuthorizer(authorize: ReadAuthorizer): void {
  slot().authorize = authorize;
}

export function authorizeRead(request: Request): Promise<Response | null> {
  return slot().authorize(request);
}
