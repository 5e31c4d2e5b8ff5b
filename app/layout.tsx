// Root layout (server component): header with the sections, the revision picker and the
// etcd banner. The only client parts are those three and the query provider.
//
// The header's parts read the URL (useSearchParams) and sit in no Suspense boundary of
// their own: a boundary hydrates after the root, at idle priority, and a link clicked
// before it did (the picker's "compare with now" on /?revision=R) changed the URL first,
// so the boundary hydrated against the new one: the pinned banner rendered nothing where
// the server had rendered it (React #418), the sections' links lost their ?revision=.
// Every page is rendered per request (headers() below), so useSearchParams needs no
// boundary here; in the root they hydrate before any of their links can be followed.
import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import type { ReactNode } from "react";
import { EtcdBanner } from "@/components/layout/etcd-banner";
import { Nav } from "@/components/layout/nav";
import { SkipLink } from "@/components/layout/skip-link";
import { ScrollBoxes } from "@/components/layout/scroll-boxes";
import { PinnedBanner } from "@/components/layout/pinned-banner";
import { RevisionPicker } from "@/components/layout/revision-picker";
import { RefreshingNotice } from "@/components/policies/refreshing-notice";
import { Providers } from "@/lib/client/providers";
import "./globals.css";

export const metadata: Metadata = {
  title: "Scheduler Console",
  icons: { icon: "/favicon.svg" },
  description: "The lance-context maintenance scheduler: demand, executors, shadow canary, failures",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Render per request: proxy.ts sets a nonce CSP, which Next applies to its scripts only
  // on dynamic renders (a prerendered page's scripts would be blocked).
  await headers();
  return (
    <html lang="en">
      <body>
        <Providers>
          <SkipLink />
          <ScrollBoxes />
          <header className="header">
            <Link href="/" className="brand">
              Scheduler Console
            </Link>
            <Nav />
            <RevisionPicker />
          </header>
          <PinnedBanner />
          <EtcdBanner />
          <RefreshingNotice />
          <main className="main" id="main" tabIndex={-1}>
            {children}
          </main>
        </Providers>
      </body>
    </html>
  );
}
