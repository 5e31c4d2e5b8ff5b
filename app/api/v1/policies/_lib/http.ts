import "server-only";
// Request guards of the policy endpoints (console-api.md "PUT /api/v1/policies", issue 7
// "Security checks"): JSON only (415), at most 64 KiB (413), If-Match required (428).
import { json } from "@/lib/api/handler";
import { authorize, isAuthError, type Need, type Principal } from "@/lib/auth";

export const MAX_BODY_BYTES = 64 * 1024;

/** `{error: {code, message, ...extra}}` with `status`. */
export function errorResponse(status: number, code: string, message: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Response {
  return json({ error: { code, message, ...extra } }, { status, headers });
}

/** The principal, or the 401/403 Response of lib/auth's typed error. */
export async function authorized(request: Request, need: Need): Promise<Principal | Response> {
  try {
    return await authorize(request, need);
  } catch (e) {
    if (isAuthError(e)) return json(e.body(), { status: e.status });
    throw e;
  }
}

/** Route param → target (1..512 chars); `_default` passes through. */
export function parseTarget(raw: string): string | Response {
  if (raw.length < 1 || raw.length > 512) return errorResponse(400, "invalid_query", "target must be 1..512 characters");
  return raw;
}

/** If-Match → expected mod_revision. Accepts `123`, `"123"` and `W/"123"`. */
export function parseIfMatch(request: Request): number | Response {
  const header = request.headers.get("if-match");
  if (header === null || header.trim() === "") {
    return errorResponse(428, "precondition_required", "If-Match is required: send the mod_revision (ETag) you read, or 0 to create.");
  }
  const m = /^(?:W\/)?"?(\d{1,16})"?$/.exec(header.trim());
  if (!m || !Number.isSafeInteger(Number(m[1]))) {
    return errorResponse(400, "invalid_query", "If-Match must be one mod_revision (a non-negative integer).");
  }
  return Number(m[1]);
}

/** The JSON body (any JSON value), or a 415 / 413 / 400 Response. Reads at most 64 KiB + 1. */
export async function readJsonBody(request: Request): Promise<{ value: unknown } | Response> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/json") {
    return errorResponse(415, "unsupported_media_type", "The body must be application/json.", {}, CLOSE);
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) return tooLarge();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BODY_BYTES) {
        await reader.cancel();
        return tooLarge();
      }
      chunks.push(value);
    }
  }
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    return { value: JSON.parse(text) };
  } catch {
    return errorResponse(400, "invalid_json", "The body is not valid JSON.");
  }
}

/**
 * A refusal that leaves the request body unread (or cancelled mid-stream) closes the
 * connection: the client must not reuse a socket whose request the server never finished
 * reading (else its next request on it meets a reset).
 */
const CLOSE = { connection: "close" };

function tooLarge(): Response {
  return errorResponse(413, "payload_too_large", `The body exceeds ${MAX_BODY_BYTES} bytes.`, {}, CLOSE);
}
