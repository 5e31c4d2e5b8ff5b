import { NextResponse, type NextRequest } from "next/server";

// Runs before routing, for pages and the API:
// * A path that is not valid percent-encoded UTF-8 (`/tables/%ZZ`, `…/%E0%A4%A`) cannot name
//   any target: it answers 400 here, the JSON error of console-api.md "Conventions" under
//   /api and a readable page elsewhere, instead of failing later while Next decodes it.
// * `/tables/a/b` (a target's "/" unencoded, as older copied links carry it) redirects to
//   `/tables/a%2Fb`, the table `a/b`.
// * Security headers for every HTML page: a strict, per-request nonce CSP (Next applies the
//   nonce to its own scripts when the page renders dynamically), no framing, no sniffing.
//   Inline style attributes (charts, virtual list positioning) need 'unsafe-inline' in
//   style-src; scripts stay nonce-only.

const BAD_PATH = "the address is not valid percent-encoded UTF-8";

function isBadlyEncoded(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}

function badPathResponse(isApi: boolean, csp: string): NextResponse {
  if (isApi) {
    const issues = [{ path: ["path"], code: "bad_encoding", message: BAD_PATH }];
    return NextResponse.json(
      { error: { code: "invalid_query", message: `path: ${BAD_PATH}`, issues } },
      { status: 400 },
    );
  }
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bad address · Scheduler Console</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; padding: 0 1rem; line-height: 1.5">
<h1>This address cannot be opened</h1>
<p>Part of the address is not valid: a <code>%</code> sign must be followed by two hexadecimal digits, and together they must spell UTF-8 text. A table name in an address is written with <code>encodeURIComponent</code>.</p>
<p><a href="/">Go to the overview</a> or <a href="/tables">find the table in the list</a>.</p>
</body></html>`;
  return new NextResponse(page, {
    status: 400,
    headers: { "content-type": "text/html; charset=utf-8", "Content-Security-Policy": csp },
  });
}

export function proxy(request: NextRequest) {
  const isApi = request.nextUrl.pathname.startsWith("/api/");
  if (isApi) return isBadlyEncoded(request.nextUrl.pathname) ? badPathResponse(true, "") : NextResponse.next();
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const isDev = process.env.NODE_ENV === "development";
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${isDev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  if (isBadlyEncoded(request.nextUrl.pathname)) return badPathResponse(false, csp);
  // a table link whose target's "/" travelled raw (`/tables/incident/stalled-merge`): the
  // page the link meant, with the target encoded (console-api.md third version)
  // (the raw request path: a WHATWG URL keeps %2F encoded, so this never loops)
  const raw = /^\/tables\/(.+\/.*)$/.exec(new URL(request.url).pathname);
  if (raw) {
    const url = request.nextUrl.clone();
    url.pathname = `/tables/${encodeURIComponent(decodeURIComponent(raw[1]))}`;
    return NextResponse.redirect(url, 308);
  }

  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", csp);
  return response;
}

export const config = {
  matcher: [
    // an API path runs this only when it holds a percent sign: the one thing checked here for
    // the API is its percent-encoding, and the proxy costs every request it runs on (Next
    // builds a request object and an error to pass it on; about 7 % of a request's time)
    "/api/(.*%.*)",
    {
      source: "/((?!api|_next/static|_next/image|favicon.ico).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
