// Who is signed in, with sign-in / sign-out; shown above the policy pages.
import Link from "next/link";
import type { SessionResponse } from "@/lib/schema/api/session";
import styles from "./policies.module.css";

export function SessionBar({ actor, role, next }: { actor: string; role: SessionResponse["role"]; next: string }) {
  return (
    <div className={styles.actions} data-testid="session-bar" data-role={role}>
      {role === "anonymous" ? (
        <Link href={`/signin?next=${encodeURIComponent(next)}`}>Sign in</Link>
      ) : (
        <>
          <span className="muted">
            Signed in as <span className="mono">{actor}</span> ({role})
          </span>
          <form method="post" action="/api/v1/session">
            <input type="hidden" name="action" value="signout" />
            <button type="submit">Sign out</button>
          </form>
        </>
      )}
    </div>
  );
}
