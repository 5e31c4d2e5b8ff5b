// `/signin`: an admin (or, when reads are gated, a viewer) exchanges a token for an
// httpOnly session cookie. A plain form posting to /api/v1/session: works without JS.
import Link from "next/link";
import { safeNext } from "@/lib/http/session";
import { currentViewer } from "@/lib/auth/server";
import styles from "@/components/policies/policies.module.css";

export const dynamic = "force-dynamic";
export const metadata = { title: "Sign in · Scheduler Console" };

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const query = await searchParams;
  const next = safeNext(query.next);
  const viewer = await currentViewer();
  const signedIn = viewer.principal.role !== "anonymous";
  return (
    <section className="panel" style={{ maxWidth: 520 }}>
      <h1>Sign in</h1>
      {viewer.readOnly && (
        <p className={styles.notice} data-testid="read-only-notice">
          The console is read-only: no admin tokens are configured (CONSOLE_ADMIN_TOKENS), so nobody can change policies
          here.
        </p>
      )}
      {query.error && (
        <p className="state state-error" role="alert" data-testid="signin-error">
          That token is not valid.
        </p>
      )}
      {query.signed_out && <p className={styles.saved}>Signed out.</p>}
      {signedIn && (
        <p data-testid="signed-in-as">
          Signed in as <span className="mono">{viewer.principal.actor}</span> ({viewer.principal.role}).
        </p>
      )}
      <form method="post" action="/api/v1/session" className="grid">
        <input type="hidden" name="next" value={next} />
        <label htmlFor="token">Token</label>
        <input id="token" name="token" type="password" autoComplete="current-password" required maxLength={1024} />
        <div className={styles.actions}>
          <button type="submit" className={styles.primary}>
            Sign in
          </button>
          <Link href={next}>Cancel</Link>
        </div>
      </form>
      {signedIn && (
        <form method="post" action="/api/v1/session">
          <input type="hidden" name="action" value="signout" />
          <button type="submit">Sign out</button>
        </form>
      )}
    </section>
  );
}
