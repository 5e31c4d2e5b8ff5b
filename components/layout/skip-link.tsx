"use client";
// The first Tab stop on every page: past the header (and, on /tables, past the filters too)
// straight to what the page is about. It moves the focus itself rather than following the
// fragment: a `#main` history entry is one Next's router did not make, and Back to it would
// leave the page it came from on screen.
import { usePathname } from "next/navigation";

export function SkipLink() {
  const onTables = usePathname() === "/tables";
  const href = onTables ? "#tables-grid" : "#main";
  return (
    <a
      href={href}
      className="skip-link"
      data-testid={onTables ? "skip-to-grid" : "skip-link"}
      onClick={(e) => {
        const to = document.querySelector<HTMLElement>(href);
        if (!to) return;
        e.preventDefault();
        to.focus({ preventScroll: true });
        to.scrollIntoView({ block: "start" });
      }}
    >
      {onTables ? "Skip to the tables" : "Skip to the content"}
    </a>
  );
}
