"use client";
// The first Tab stop on every page: past the header (and, on /tables, past the filters too)
// straight to what the page is about.
import { usePathname } from "next/navigation";

export function SkipLink() {
  const onTables = usePathname() === "/tables";
  return (
    <a
      href={onTables ? "#tables-grid" : "#main"}
      className="skip-link"
      data-testid={onTables ? "skip-to-grid" : "skip-link"}
    >
      {onTables ? "Skip to the tables" : "Skip to the content"}
    </a>
  );
}
