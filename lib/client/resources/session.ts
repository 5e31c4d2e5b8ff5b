// Who is signed in (console-api.md Security, `GET /api/v1/session`).
import type { SessionResponse } from "@/lib/schema/api/session";
import { fetchJson } from "../fetch-json";

export const sessionKeys = { me: () => ["session"] as const };

export function fetchSession(signal?: AbortSignal): Promise<SessionResponse> {
  return fetchJson<SessionResponse>("/api/v1/session", {}, signal);
}
