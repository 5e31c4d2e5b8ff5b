"use client";
// Time travel (issue 5): pin every page to a past etcd revision via `?revision=R`;
// "live" drops the pin. A pinned view is marked "not live" so nobody mistakes it for now.
import { useQuery } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useState, type FormEvent } from "react";
import { LiveMark } from "@/components/layout/etcd-banner";
import { formatCount } from "@/components/ui/format";
import { fetchHealth, healthKeys } from "@/lib/client/resources/health";
import { usePinnedRevision } from "@/lib/client/revision";
import { useHydrated } from "@/lib/client/use-hydrated";

export function RevisionPicker() {
  const pinned = usePinnedRevision();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const health = useQuery({ queryKey: healthKeys.now(), queryFn: ({ signal }) => fetchHealth(signal), refetchInterval: 2000 });
  const hydrated = useHydrated();
  const liveRevision = hydrated ? (health.data?.revision ?? health.data?.snapshot?.revision ?? null) : null;
  const [draft, setDraft] = useState(pinned === null ? "" : String(pinned));
  useEffect(() => setDraft(pinned === null ? "" : String(pinned)), [pinned]);

  function go(revision: number | null) {
    const next = new URLSearchParams(params.toString());
    if (revision === null) next.delete("revision");
    else next.set("revision", String(revision));
    const query = next.toString();
    router.push(query ? `${pathname}?${query}` : pathname);
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const value = Number(draft);
    if (Number.isInteger(value) && value > 0) go(value);
  }

  return (
    <form className={`revision-picker ${pinned === null ? "is-live" : "is-pinned"}`} onSubmit={submit} aria-label="revision picker">
      {pinned === null ? (
        <LiveMark liveRevision={liveRevision} />
      ) : (
        <span className="pinned-mark" data-testid="live-state" role="status">
          NOT LIVE · pinned at rev {formatCount(pinned)}
        </span>
      )}
      <label>
        <span className="sr-only">revision</span>
        <input
          name="revision"
          inputMode="numeric"
          placeholder={liveRevision !== null ? `rev ≤ ${liveRevision}` : "revision"}
          value={draft}
          onChange={(e) => setDraft(e.target.value.replace(/[^\d]/g, ""))}
          size={10}
        />
      </label>
      <button type="submit">Pin</button>
      <button type="button" onClick={() => go(null)} disabled={pinned === null}>
        Live
      </button>
    </form>
  );
}
