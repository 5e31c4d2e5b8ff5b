import "server-only";
import { headers } from "next/headers";
import { viewerOf, type Viewer } from "@scheduler-console/engine";

/** Who is looking at the page being rendered (the engine's `viewerOf` on this request's headers). */
export async function currentViewer(target?: string): Promise<Viewer> {
  return viewerOf(await headers(), target);
}
