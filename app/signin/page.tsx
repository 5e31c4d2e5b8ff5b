// `/signin`: an admin (or, when reads are gated, a viewer) exchanges a token for an
// httpOnly session cookie: a plain form posting to /api/v1/session, which works without JS.
// With CONSOLE_OIDC_* (console-api.md "Single sign-on and team rights") it offers the
// company's provider first; a sign-in through it that failed comes back here with its code.
import Link from "next/link";
import { safeNext } from "@scheduler-console/engine";
import { currentViewer } from "@/app/viewer";
import { SIGN_IN_FAILURES, type SignInFailure } from "@/lib/schema/api/session";
import { SIGN_IN_FAILURE_WORDS, sessionExpiredWords } from "@/lib/words/rights";
import styles from "@/components/policies/policies.module.css";

export const dynamic = "force-dynamic";
export const metadata = { title: "Sign in · Scheduler Console" };

const failureOf = (v: unknown): SignInFailure | null =>
  (SIGN_IN_FAILURES as readonly unknown[]).includes(v) ? (v as SignInFailure) : null;

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const query = await searchParams;
  const next = safeNext(query.next);
  const viewer = await currentViewer();
  const { session } = viewer;
  const signedIn = viewer.principal.role !== "anonymous";
  const failure = failureOf(query.sso_error);
  return (
    <section className="panel" style={{ maxWidth: 520 }}>
      <h1>Sign in</h1>
      {viewer.readOnly && (
        <p className={styles.notice} data-testid="read-only-notice">
          The console is read-only: no admin token (CONSOLE_ADMIN_TOKENS) and no admin rule (CONSOLE_RBAC_FILE) is
          configured, so nobody can change policies here.
        </p>
      )}
      {query.error && (
        <p className="state state-error" role="alert" data-testid="signin-error">
          That token is not valid.
        </p>
      )}
      {failure && (
        <p className="state state-error" role="alert" data-testid="sso-error" data-code={failure}>
          {SIGN_IN_FAILURE_WORDS[failure]}
        </p>
      )}
      {session.session_expired_at_ms !== null && !signedIn && (
        <p className={styles.notice} data-testid="session-expired">
          {sessionExpiredWords(session.session_expired_at_ms)}
        </p>
      )}
      {query.signed_out && <p className={styles.saved}>Signed out.</p>}
      {signedIn && (
        <p data-testid="signed-in-as">
          Signed in as <span className="mono">{viewer.principal.actor}</span> ({viewer.principal.role}).
        </p>
      )}
      {session.oidc && (
        // a link, not a form: the login route redirects to the provider, which CSP's form-action 'self' would stop
        <p className={styles.actions}>
          <a
            className={styles.linkButton}
            href={`${session.oidc.login_path}?return_to=${encodeURIComponent(next)}`}
            data-testid="sso-sign-in"
          >
            Sign in with single sign-on
          </a>
          <span className="muted">{new URL(session.oidc.issuer).host}</span>
        </p>
      )}
      <form method="post" action="/api/v1/session" className="grid">
        <input type="hidden" name="next" value={next} />
        <label htmlFor="token">{session.oidc ? "Or with a token" : "Token"}</label>
        <input id="token" name="token" type="password" autoComplete="current-password" required maxLength={1024} />
        <div className={styles.actions}>
          <button type="submit" className={session.oidc ? undefined : styles.primary}>
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
