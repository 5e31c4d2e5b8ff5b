import "server-only";
// The request body and If-Match of a write (console-api.md PUT /api/v1/policies): JSON only
// (415), bounded size (413, read as a stream so a body without Content-Length is bounded
// too), valid JSON (400), If-Match required where a write replaces a record (428).
import { ApiError } from "@/lib/schema/api/errors";

const MAX_BODY_BYTES = 64 * 1024;

/**
 * A refusal that leaves the request body unread (or cancelled mid-stream) closes the
 * connection: the client must not reuse a socket whose request the server never finished
 * reading (else its next request on it meets a reset).
 */
const CLOSE = { connection: "close" };

const mediaType = (request: Request) => (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();

function tooLarge(maxBytes: number): ApiError {
  return new ApiError(413, "payload_too_large", `The body exceeds ${maxBytes} bytes.`, {}, CLOSE);
}

async function readText(request: Request, maxBytes: number): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        throw tooLarge(maxBytes);
      }
      chunks.push(value);
    }
  }
  return Buffer.concat(chunks).toString("utf8");
}

export interface BodySpec {
  /** default MAX_BODY_BYTES (64 KiB) */
  maxBytes?: number;
  /** also accept `application/x-www-form-urlencoded` (the no-JavaScript sign-in form) */
  form?: boolean;
}

export interface ReadBody {
  value: unknown;
  form: boolean;
}

/** The decoded body, or an ApiError (415 / 413 / 400 invalid_json). */
export async function readBody(request: Request, spec: BodySpec): Promise<ReadBody> {
  const type = mediaType(request);
  const maxBytes = spec.maxBytes ?? MAX_BODY_BYTES;
  const form = spec.form === true && type === "application/x-www-form-urlencoded";
  if (type !== "application/json" && !form) {
    const accepted = spec.form ? "application/json or application/x-www-form-urlencoded" : "application/json";
    throw new ApiError(415, "unsupported_media_type", `The body must be ${accepted}.`, {}, CLOSE);
  }
  const text = await readText(request, maxBytes);
  if (form) return { value: Object.fromEntries(new URLSearchParams(text)), form: true };
  try {
    return { value: JSON.parse(text), form: false };
  } catch {
    throw new ApiError(400, "invalid_json", "The body is not valid JSON.");
  }
}

/** If-Match → the expected mod_revision. Accepts `123`, `"123"` and `W/"123"`; `0` = must not exist yet. */
export function readIfMatch(request: Request): number {
  const header = request.headers.get("if-match");
  if (header === null || header.trim() === "") {
    throw new ApiError(
      428,
      "precondition_required",
      "If-Match is required: send the mod_revision (ETag) you read, or 0 to create.",
    );
  }
  const m = /^(?:W\/)?"?(\d{1,16})"?$/.exec(header.trim());
  if (!m || !Number.isSafeInteger(Number(m[1]))) {
    throw new ApiError(400, "invalid_query", "If-Match must be one mod_revision (a non-negative integer).", {
      issues: [
        {
          path: ["If-Match"],
          code: "invalid_format",
          message: "If-Match must be one mod_revision (a non-negative integer).",
        },
      ],
    });
  }
  return Number(m[1]);
}
