"use client";
// The console's sections; links keep a pinned revision so navigation stays in the past.
import Link from "next/link";
import { usePathname } from "next/navigation";
import { usePinnedRevision, withRevision } from "@/lib/client/revision";

const SECTIONS = [
  { href: "/", label: "Overview" },
  { href: "/tables", label: "Tables" },
  { href: "/executors", label: "Executors" },
  { href: "/shadow", label: "Shadow" },
  { href: "/canary", label: "Canary" },
  { href: "/facts", label: "Facts" },
  { href: "/failures", label: "Failures" },
  { href: "/reasons", label: "Reasons" },
  { href: "/policies", label: "Policies" },
  { href: "/audit", label: "Audit" },
];

export function Nav() {
  const pathname = usePathname();
  const revision = usePinnedRevision();
  return (
    <nav className="nav" aria-label="sections">
      {SECTIONS.map((s) => {
        const active = s.href === "/" ? pathname === "/" : pathname.startsWith(s.href);
        return (
          <Link
            key={s.href}
            href={withRevision(s.href, revision)}
            className={active ? "active" : undefined}
            aria-current={active ? "page" : undefined}
          >
            {s.label}
          </Link>
        );
      })}
    </nav>
  );
}
