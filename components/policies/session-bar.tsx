// Who is signed in, with sign-in / sign-out; shown above the policy pages. With the session's
// answer it also says which policies the person may change, or that their session expired.
import Link from "next/link";
import type { SessionResponse } from "@/lib/schema/api/session";
import { sessionExpiredWords } from "@/lib/words/rights";
import styles from "./policies.module.css";

export function SessionBar({
  actor,
  role,
  next,
  session,
}: {
  actor: string;
  role: SessionResponse["role"];
  next: string;
  session?: SessionResponse;
}) {
  const expiredAt = session?.session_expired_at_ms ?? null;
  const mayChange = session && role === "admin" && session.admin_targets.length > 0 ? session.admin_targets : null;
  return (
    <div className={styles.actions} data-testid="session-bar" data-role={role}>
      {role === "anonymous" ? (
        <>
          {expiredAt !== null && (
            <span className={styles.notice} data-testid="session-expired">
              {sessionExpiredWords(expiredAt)}
            </span>
          )}
          <Link href={`/signin?next=${encodeURIComponent(next)}`}>Sign in</Link>
        </>
      ) : (
        <>
          <span className="muted">
            Signed in as <span className="mono">{actor}</span> ({role})
            {mayChange && (
              <span data-testid="admin-targets">
                {" "}
                · may change <span className="mono">{mayChange.join(", ")}</span>
              </span>
            )}
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
