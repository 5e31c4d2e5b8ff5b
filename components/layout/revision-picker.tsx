"use client";
// Time travel by wall time (console-api.md "Time"): the picker takes a time ("03:10",
// "yesterday 22:00", "2h ago", UTC like every page) or a revision, shows the matching
// revision, and steps back / forward through the revisions where something on this page
// changed. The URL holds the pin (`?revision=`, with `?at=` for a time), so a shared link
// opens the same view; "Live" drops it.
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { encodedPath } from "@/lib/client/links";
import { useEffect, useState, type FormEvent } from "react";
import { LiveMark } from "@/components/layout/etcd-banner";
import { useNewestLiveRevision } from "@/lib/client/newest-revision";
import { formatCount } from "@/components/ui/format";
import { ApiError } from "@/lib/client/fetch-json";
import { fetchHealth } from "@/lib/client/resources/health";
import { fetchChange, fetchRevisionAt, parsePin } from "@/lib/client/resources/revisions";
import { changeScopeOf, usePinnedRevision } from "@/lib/client/revision";
import { useHydrated } from "@/lib/client/use-hydrated";
import { useHealthPoll } from "@/lib/client/hooks";

export function RevisionPicker() {
  const pinned = usePinnedRevision();
  const router = useRouter();
  // the path re-encoded: a table target's "/" must not travel raw (console-api.md third version)
  const pathname = encodedPath(usePathname());
  const params = useSearchParams();
  const health = useHealthPoll();
  const hydrated = useHydrated();
  // the newest revision seen live: the health poll's, or a pushed /tables step's when newer
  const liveRevision = useNewestLiveRevision(
    hydrated ? (health.data?.revision ?? health.data?.snapshot?.revision ?? null) : null,
  );
  const at = params.get("at");
  const pinText = at !== null && pinned !== null ? draftOfAt(at) : pinned === null ? "" : String(pinned);
  const [draft, setDraft] = useState(pinText);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // the box shows the pin; it is reset only when the pin itself changes (set while rendering, not on every render)
  const [shownPin, setShownPin] = useState(pinText);
  if (shownPin !== pinText) {
    setShownPin(pinText);
    setDraft(pinText);
  }
  // a shared link whose `?at=` is not a time says so (no request is made for it)
  const unreadableAt =
    at !== null && pinned === null && !Number.isFinite(Date.parse(at))
      ? `cannot read the link's time ${JSON.stringify(at)}`
      : null;

  function go(revision: number | null, atMs?: number) {
    const next = new URLSearchParams(params.toString());
    next.delete("at");
    if (revision === null) {
      next.delete("revision");
      next.delete("now");
    } else next.set("revision", String(revision));
    if (atMs !== undefined) next.set("at", new Date(atMs).toISOString());
    const query = next.toString();
    setProblem(null);
    router.push(query ? `${pathname}?${query}` : pathname);
  }

  // a shared link with only `?at=`: find its revision once, then keep both in the URL
  useEffect(() => {
    if (at === null || pinned !== null) return;
    const atMs = Date.parse(at);
    if (!Number.isFinite(atMs)) return;
    let cancelled = false;
    fetchRevisionAt(atMs).then(
      (t) => !cancelled && go(t.revision, atMs),
      (e) => !cancelled && setProblem(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      cancelled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [at, pinned]);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    // a revision is checked against the newest one, asked for now if health has not answered yet
    const newest =
      liveRevision ??
      (await fetchHealth().then(
        (h) => h.revision ?? h.snapshot?.revision ?? null,
        () => null,
      ));
    // what the box holds now: text typed before the page finished hydrating is in the box but not yet in state
    const typed = new FormData(form).get("when");
    const pin = parsePin(typeof typed === "string" ? typed : draft, Date.now(), newest);
    if (pin.kind === "error") return setProblem(pin.message);
    if (pin.kind === "revision") return go(pin.revision);
    setBusy(true);
    try {
      go((await fetchRevisionAt(pin.atMs)).revision, pin.atMs);
    } catch (err) {
      setProblem(err instanceof ApiError ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  async function step(direction: "back" | "forward") {
    const from = pinned ?? liveRevision;
    if (from === null) return;
    const { scope, target } = changeScopeOf(pathname);
    setBusy(true);
    try {
      const change = await fetchChange(scope, target, from, direction);
      if (direction === "forward" && liveRevision !== null && change.revision >= liveRevision) go(null);
      else go(change.revision);
    } catch (err) {
      setProblem(
        err instanceof ApiError && err.status === 404
          ? `no ${direction === "back" ? "earlier" : "later"} change on this page`
          : String(err),
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className={`revision-picker ${pinned === null ? "is-live" : "is-pinned"}`}
      onSubmit={submit}
      aria-label="time travel"
    >
      {pinned === null ? (
        <LiveMark liveRevision={liveRevision} />
      ) : (
        <span className="pinned-mark" data-testid="live-state" role="status">
          NOT LIVE · rev {formatCount(pinned)}
        </span>
      )}
      <button
        type="button"
        onClick={() => void step("back")}
        disabled={busy || (pinned ?? liveRevision) === null}
        aria-label="step back one change"
        title="step back one change on this page"
      >
        ◀
      </button>
      <label>
        <span className="sr-only">time (UTC) or revision</span>
        <input
          name="when"
          placeholder="03:10, 2h ago, rev"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          size={14}
          aria-invalid={(problem ?? unreadableAt) !== null}
          aria-describedby="pin-problem"
        />
      </label>
      <button
        type="button"
        onClick={() => void step("forward")}
        disabled={busy || pinned === null}
        aria-label="step forward one change"
        title="step forward one change on this page"
      >
        ▶
      </button>
      <button type="submit" disabled={busy}>
        Pin
      </button>
      <button type="button" onClick={() => go(null)} disabled={pinned === null}>
        Live
      </button>
      {pinned !== null ? (
        <Link href={`/diff?from=${pinned}`} data-testid="compare-with-now">
          compare with now
        </Link>
      ) : null}
      <span id="pin-problem" className="pin-problem" role="alert" data-testid="pin-problem">
        {problem ?? unreadableAt ?? ""}
      </span>
    </form>
  );
}

/** `?at=` (ISO) shown as the picker typed it: "2026-12-01 03:10:12". */
function draftOfAt(at: string): string {
  const ms = Date.parse(at);
  return Number.isFinite(ms) ? new Date(ms).toISOString().slice(0, 19).replace("T", " ") : at;
}
