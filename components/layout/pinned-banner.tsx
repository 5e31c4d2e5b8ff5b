"use client";
// A strip under the header while a past revision is pinned, so nobody mistakes it for now.
import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { formatCount } from "@/components/ui/format";
import { usePinnedRevision } from "@/lib/client/revision";

export function PinnedBanner() {
  const revision = usePinnedRevision();
  const pathname = usePathname();
  const params = useSearchParams();
  if (revision === null) return null;
  const live = new URLSearchParams(params.toString());
  live.delete("revision");
  const query = live.toString();
  return (
    <div className="pinned-banner" role="status" data-testid="pinned-banner">
      Time travel: everything below is etcd revision {formatCount(revision)}, not live. Data does not refresh.{" "}
      <Link href={query ? `${pathname}?${query}` : pathname} style={{ color: "inherit", textDecoration: "underline" }}>
        Return to live
      </Link>
    </div>
  );
}
