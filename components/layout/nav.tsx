"use client";
// The console's sections; links keep a pinned revision so navigation stays in the past. On a
// narrow screen (a phone) the sections fold behind one "Sections" button, so the header never
// runs off the side; following a link folds them again.
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useState } from "react";
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
  const [open, setOpen] = useState(false);
  // a new page folds the sections again (set while rendering, not in an effect)
  const [shownPath, setShownPath] = useState(pathname);
  if (shownPath !== pathname) {
    setShownPath(pathname);
    setOpen(false);
  }
  const current = SECTIONS.find((s) => (s.href === "/" ? pathname === "/" : pathname.startsWith(s.href)));
  return (
    <>
      <button
        type="button"
        className="nav-toggle"
        aria-expanded={open}
        aria-controls="sections"
        onClick={() => setOpen(!open)}
        data-testid="nav-toggle"
      >
        {current ? current.label : "Sections"} <span aria-hidden="true">{open ? "▴" : "▾"}</span>
      </button>
      <nav className={`nav${open ? " nav-open" : ""}`} aria-label="sections" id="sections">
        {SECTIONS.map((s) => {
          const active = s === current;
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
    </>
  );
}
