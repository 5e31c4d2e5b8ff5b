// The headers every response carries (console-api.md "Security"): next.config.mjs adds them to
// what Next answers, and the engine's direct reads (lib/engine/direct.ts) to what they answer.
// Pages add their CSP in proxy.ts. The list is JSON (./security-headers.json) because
// next.config.mjs is plain JavaScript and reads it too.
import headers from "./security-headers.json";

export const SECURITY_HEADERS: readonly { key: string; value: string }[] = headers;
