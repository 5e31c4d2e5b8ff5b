// In-app hrefs, built in one place so deep links stay stable.
import { withRevision } from "./revision";

/** Targets travel URL-encoded in the path (console-api.md: 1..512 chars, any bytes). */
export function tableHref(target: string, revision: number | null = null): string {
  return withRevision(`/tables/${encodeURIComponent(target)}`, revision);
}

export { encodedPath } from "./paths";
