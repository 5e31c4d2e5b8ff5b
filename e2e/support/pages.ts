// Every page of the console once, with what shows it is ready (a test id, or a CSS selector
// when it has a space) and what to open on it: the axe check and the screen checks walk it.
import fs from "node:fs";
import path from "node:path";
import { GIANT_TABLE, INCIDENT } from "./scenario";

const t = (target: string) => `/tables/${encodeURIComponent(target)}`;

export interface ConsolePage {
  path: string;
  ready: string;
  /** a disclosure (its test id) to open before checking */
  open?: string;
}

export const PAGES: ConsolePage[] = [
  { path: "/", ready: "total-tables" },
  { path: "/tables", ready: "table-row" },
  { path: "/tables?q=incident&sort=wait&order=desc", ready: "table-row" },
  { path: t(INCIDENT.mergingTarget), ready: "why-not" },
  { path: t(INCIDENT.orphanTarget), ready: "why-not" },
  { path: t(INCIDENT.brokenStore), ready: "why-not" },
  { path: t(GIANT_TABLE), ready: "why-not" },
  { path: t(INCIDENT.phantomQueued), ready: "table-not-found" },
  { path: "/executors", ready: "executor-card" },
  { path: "/shadow?open=phantom_task&open=running", ready: "outcome-tables-phantom_task", open: "shadow-trend-table" },
  { path: "/failures", ready: "failure-ledger" },
  { path: "/skipped", ready: "skipped-list" },
  { path: "/policies", ready: "policies-list" },
  { path: `/policies/${encodeURIComponent(INCIDENT.mergingTarget)}`, ready: "policy-read-view" },
  { path: "/audit", ready: "main h1" },
  { path: "/canary", ready: "canary-samples" },
  { path: "/facts", ready: "facts-tables" },
  { path: "/reasons", ready: "main h1" },
  ...(fs.existsSync(path.resolve(__dirname, "../../app/(console)/diff/page.tsx"))
    ? [{ path: "/diff?since=1h", ready: "diff-sides" }]
    : []),
];

/** The page's ready element (PAGES' `ready`). */
export const readySelector = (ready: string) => (ready.includes(" ") ? ready : `[data-testid="${ready}"]`);
