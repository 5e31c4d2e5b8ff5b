// The columns of a table listing, named once: the /tables grid, the overview's lists and the
// command line's `tables` (upper-cased) say the same words.
export const TABLE_COLUMNS = {
  target: { label: "target" },
  class: { label: "class" },
  position: {
    label: "in line",
    title:
      "place in the planner's line among the tables waiting for the same kind of turn, with that kind (if the planner ran them; a table's page gives the legacy queue's place too)",
  },
  score: { label: "score" },
  pending: { label: "pending" },
  bytes: { label: "to merge", title: "bytes to merge: bytes through sealed on the shards with pending work" },
  oldest: { label: "oldest pending" },
  wait: { label: "wait" },
  backlog: { label: "backlog" },
  verdict: { label: "verdict" },
} as const satisfies Record<string, { label: string; title?: string }>;

/** A command-line column title: the page's label, upper-cased. */
export const cliTitle = (c: keyof typeof TABLE_COLUMNS): string => TABLE_COLUMNS[c].label.toUpperCase();
