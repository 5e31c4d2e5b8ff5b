// The headers every response carries (console-api.md "Security"): next.config.ts adds them to
// what Next answers, and the engine's direct reads (lib/engine/direct.ts) to what they answer.
// Pages add their CSP in proxy.ts. No imports: next.config.ts reads this file too.

export const SECURITY_HEADERS: readonly { key: string; value: string }[] = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Referrer-Policy", value: "same-origin" },
];
