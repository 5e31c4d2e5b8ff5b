"use client";
// Read your writes: while live reads wait for the revision of the admin's last save, say
// so, instead of showing the replaced value as if it were current.
import { useAwaitedRevision } from "@/lib/client/hooks";
import styles from "./policies.module.css";
import { formatCount } from "@/components/ui/format";

export function RefreshingNotice() {
  const revision = useAwaitedRevision();
  if (revision === null) return null;
  return (
    <div className={styles.notice} role="status" aria-live="polite" data-testid="refreshing-notice">
      Refreshing: waiting for etcd revision {formatCount(revision)} (your save) to reach this page…
    </div>
  );
}
