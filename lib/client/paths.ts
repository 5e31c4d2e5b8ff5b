// Page paths and the table they name (console-api.md third version: a target travels
// percent-encoded in every page path too).

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The page's own path with its target percent-encoded again (console-api.md third version:
 * a target travels encoded in every page path). Next's `usePathname()` may hand the table
 * page's path back decoded (`/tables/incident/stalled-merge`); a link built from that 404s.
 */
export function encodedPath(pathname: string): string {
  if (!pathname.startsWith("/tables/")) return pathname;
  const rest = pathname.slice("/tables/".length);
  // a literal "/" only survives decoding; an encoded path has none
  return `/tables/${encodeURIComponent(rest.includes("/") ? rest : safeDecode(rest))}`;
}

/** The table a page path names (`/tables/a%2Fb` and, decoded, `/tables/a/b` are both table `a/b`). */
export function tableOfPath(pathname: string): string | null {
  if (!pathname.startsWith("/tables/") || pathname.length === "/tables/".length) return null;
  const rest = pathname.slice("/tables/".length);
  return rest.includes("/") ? rest : safeDecode(rest);
}
