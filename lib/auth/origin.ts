import "server-only";

// console-api.md Security: mutations are same-origin only. Browsers send Sec-Fetch-Site
// and Origin on every state-changing fetch; a script from another site cannot forge them.
// A request with neither (curl, on-call tooling with a bearer token) is not a browser
// cross-site request and passes.

export type OriginVerdict = { ok: true } | { ok: false; reason: string };

/** The host (with port) this request was addressed to, preferring the proxy's view. */
function requestHost(headers: Headers, url: string): string | null {
  const forwarded = headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  if (forwarded) return forwarded.toLowerCase();
  const host = headers.get("host");
  if (host) return host.toLowerCase();
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return null;
  }
}

/** True when the request arrived over https (directly or per X-Forwarded-Proto). */
export function isHttps(headers: Headers, url: string): boolean {
  const proto = headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  if (proto) return proto === "https";
  return url.startsWith("https:");
}

export function checkSameOrigin(headers: Headers, url: string): OriginVerdict {
  const site = headers.get("sec-fetch-site")?.toLowerCase();
  if (site !== undefined && site !== "same-origin" && site !== "none") {
    return { ok: false, reason: `Sec-Fetch-Site is ${site}` };
  }
  const origin = headers.get("origin");
  if (origin === null) return { ok: true };
  let originHost: string;
  try {
    if (origin === "null") return { ok: false, reason: "Origin is null" };
    originHost = new URL(origin).host.toLowerCase();
  } catch {
    return { ok: false, reason: "Origin is not a URL" };
  }
  const host = requestHost(headers, url);
  if (host === null || originHost !== host) return { ok: false, reason: `Origin ${origin} is not this console` };
  return { ok: true };
}
