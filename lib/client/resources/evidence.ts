// The canary report an admin read travels with a policy save as X-Evidence-Digest (the
// takeover gate, console-api.md): the report page links to the editor with `?evidence=<digest>`.
const EVIDENCE_PARAM = "evidence";

/** The digest a page's query carries (null: none, or not a digest). */
export function evidenceDigestOf(params: Pick<URLSearchParams, "get">): string | null {
  const digest = params.get(EVIDENCE_PARAM);
  return digest && /^[0-9a-f]{8,128}$/.test(digest) ? digest : null;
}

function evidenceDigestInUrl(): string | null {
  return typeof window === "undefined" ? null : evidenceDigestOf(new URLSearchParams(window.location.search));
}

export function evidenceHeader(): Record<string, string> {
  const digest = evidenceDigestInUrl();
  return digest ? { "x-evidence-digest": digest } : {};
}
