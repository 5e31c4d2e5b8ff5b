"use client";
// `/tables`: every table (13,405 in production) in one virtualized list. Filters and sort
// live in the URL; j/k or arrows move, Enter opens, `/` focuses the search.
import { useVirtualizer } from "@tanstack/react-virtual";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { formatCount } from "@/components/ui/format";
import { PageTitle } from "@/components/ui/page-title";
import { QueryState } from "@/components/ui/query-state";
import type { TableSummary } from "@/lib/client/api-types";
import { useFleetListing } from "@/lib/client/hooks";
import { useOutage } from "@/lib/client/resources/health";
import { useHydrated } from "@/lib/client/use-hydrated";
import { tableHref } from "@/lib/client/links";
import { usePinnedRevision } from "@/lib/client/revision";
import { applyListView, listViewParams, parseListView, type ListView } from "./list-view";
import { FilterBar } from "./filter-bar";
import { COLUMN_COUNT, ListHeader, TableRow } from "./table-row";

const ROW_HEIGHT = 28;
/** a phone's row: the target on a line (or two) of its own, then class, wait and verdict (app/globals.css) */
const NARROW_ROW_HEIGHT = 56;
const NARROW = "(max-width: 760px)";

/** Where a reader was on this listing (its URL): restored when Back returns to it. */
interface Place {
  target: string | null;
  scrollTop: number;
}
const PLACE_KEY = "scheduler-console.tables-place:";
const placeKey = () => `${PLACE_KEY}${window.location.pathname}${window.location.search}`;

function savedPlace(): Place | null {
  try {
    const raw = window.sessionStorage.getItem(placeKey());
    return raw ? (JSON.parse(raw) as Place) : null;
  } catch {
    return null;
  }
}

function savePlace(place: Place): void {
  try {
    window.sessionStorage.setItem(placeKey(), JSON.stringify(place));
  } catch {
    // storage full or denied: Back starts at the top, as before
  }
}

/** Whether the screen is a phone's (the grid then shows fewer columns, on two lines); false on the server. */
function useNarrow(): boolean {
  return useSyncExternalStore(
    (changed) => {
      const query = window.matchMedia(NARROW);
      query.addEventListener("change", changed);
      return () => query.removeEventListener("change", changed);
    },
    () => window.matchMedia(NARROW).matches,
    () => false,
  );
}

export function TablesList() {
  const fleet = useFleetListing();
  const outage = useOutage();
  const hydrated = useHydrated();
  const loadingMore = fleet.loadingMore;
  const params = useSearchParams();
  const pathname = usePathname();
  // The view answers a click at once; the URL follows via history.replaceState (Next syncs
  // useSearchParams with it, and no server round trip is made for a filter change).
  const urlKey = params.toString();
  const [view, setLocalView] = useState(() => parseListView(new URLSearchParams(urlKey)));
  // the URL moved (back/forward, a link): the view follows it, set while rendering (not in an effect)
  const [shownKey, setShownKey] = useState(urlKey);
  if (shownKey !== urlKey) {
    setShownKey(urlKey);
    setLocalView(parseListView(new URLSearchParams(urlKey)));
  }

  const setView = useCallback(
    (next: ListView) => {
      setLocalView(next);
      const query = listViewParams(next, new URLSearchParams(window.location.search)).toString();
      window.history.replaceState(null, "", query ? `${pathname}?${query}` : pathname);
    },
    [pathname],
  );

  return (
    <QueryState query={fleet} what="tables">
      {(d) => (
        <>
          <PageTitle title="Tables" revision={d.revision} readAtMs={d.read_at_ms}>
            <span className="muted">
              {formatCount(d.total_tables)} tables · {formatCount(d.tables_with_pending)} with pending work
              {loadingMore ? ` · loading ${formatCount(d.tables.length)}/${formatCount(d.total_tables)}…` : ""}
            </span>
            {hydrated && outage.down && (
              <span className="muted" data-testid="tables-last-good">
                the last good list, as of revision {formatCount(d.revision)}: kept whole while etcd is unreachable
              </span>
            )}
          </PageTitle>
          <FilterBar view={view} onChange={setView} />
          <VirtualTables tables={d.tables} view={view} onChange={setView} />
        </>
      )}
    </QueryState>
  );
}

function VirtualTables({
  tables,
  view,
  onChange,
}: {
  tables: TableSummary[];
  view: ListView;
  onChange: (v: ListView) => void;
}) {
  const rows = useMemo(() => applyListView(tables, view), [tables, view]);
  const revision = usePinnedRevision();
  const router = useRouter();
  const scrollRef = useRef<HTMLDivElement>(null);
  const [selected, setSelected] = useState(-1);
  const rowHeight = useNarrow() ? NARROW_ROW_HEIGHT : ROW_HEIGHT;
  // TanStack Virtual hands back functions the React compiler cannot memoize: this component stays uncompiled
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 12,
  });
  // a rotated phone (or a resized window) changes the row height: the list is laid out again
  useEffect(() => virtualizer.measure(), [rowHeight, virtualizer]);

  // Back to this listing puts the reader where they were: the selected row and the scroll
  // position are saved for its URL (sessionStorage) as they change, while the URL is still
  // this listing's, and restored once the rows are here.
  const place = useRef<Place>({ target: null, scrollTop: 0 });
  const restored = useRef(false);
  const open = useCallback(
    (href: string) => {
      // the row opened is the one to come back to (a click selects no row of its own)
      const opened = decodeURIComponent(href.split("?")[0].slice("/tables/".length));
      place.current = { ...place.current, target: opened };
      savePlace(place.current);
      router.push(href);
    },
    [router],
  );
  // the selection is saved as the row it names when it moves (a later refresh may reorder the rows)
  const rowsNow = useRef(rows);
  rowsNow.current = rows;
  useEffect(() => {
    if (!restored.current) return; // not before the saved place is read back
    place.current = { ...place.current, target: selected >= 0 ? (rowsNow.current[selected]?.target ?? null) : null };
    savePlace(place.current);
  }, [selected]);
  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    let frame = 0;
    const onScroll = () => {
      place.current = { ...place.current, scrollTop: el.scrollTop };
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => restored.current && savePlace(place.current));
    };
    el.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      el.removeEventListener("scroll", onScroll);
      cancelAnimationFrame(frame);
    };
  }, []);
  useEffect(() => {
    if (restored.current || rows.length === 0) return;
    restored.current = true;
    const saved = savedPlace();
    if (!saved) return;
    const index = saved.target === null ? -1 : rows.findIndex((r) => r.target === saved.target);
    if (scrollRef.current) scrollRef.current.scrollTop = saved.scrollTop;
    place.current = { ...saved };
    if (index >= 0) setSelected(index);
  }, [rows]);

  // A new filter or sort starts the selection over (not the first view: Back may have restored one).
  const firstView = useRef(true);
  useEffect(() => {
    if (firstView.current) {
      firstView.current = false;
      return;
    }
    setSelected(-1);
  }, [view]);

  const move = useCallback(
    (delta: number) => {
      setSelected((current) => {
        const next = Math.max(0, Math.min(rows.length - 1, current + delta));
        virtualizer.scrollToIndex(next, { align: "auto" });
        return next;
      });
    },
    [rows.length, virtualizer],
  );

  // The selected row takes focus (once rendered), so Enter and screen readers follow it.
  useEffect(() => {
    if (selected < 0) return;
    const frame = requestAnimationFrame(() => {
      const row = scrollRef.current?.querySelector<HTMLElement>(`[data-index="${selected}"] a`);
      if (row && document.activeElement?.id !== "tables-search") row.focus({ preventScroll: true });
    });
    return () => cancelAnimationFrame(frame);
  }, [selected]);

  /**
   * Enter opens the selected row unless focus is on another page link, or on the selected
   * row's own link (which opens itself). A row link that still holds focus from an earlier
   * selection (focus follows the selection one frame later) does not win over the selection.
   */
  const opensSelected = useCallback((target: EventTarget | null, index: number) => {
    if (!(target instanceof HTMLAnchorElement)) return true;
    if (!scrollRef.current?.contains(target)) return false;
    return Number(target.closest("[data-index]")?.getAttribute("data-index")) !== index;
  }, []);

  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.metaKey || e.ctrlKey || e.altKey) return;
      const typing =
        e.target instanceof HTMLElement &&
        (e.target.tagName === "INPUT" || e.target.tagName === "SELECT" || e.target.tagName === "TEXTAREA");
      if (e.key === "Enter" && e.target instanceof HTMLInputElement && e.target.id === "tables-search") {
        // Enter in the search box (issue 27): one match opens; several leave the box for the
        // first row, so j/k move the selection instead of typing into the box
        e.preventDefault();
        const matches = applyListView(tables, { ...view, q: e.target.value });
        if (matches.length === 1) router.push(tableHref(matches[0].target, revision));
        else if (matches.length > 1) {
          onChange({ ...view, q: e.target.value });
          e.target.blur();
          requestAnimationFrame(() => move(1));
        }
        return;
      }
      if (e.key === "/" && !typing) {
        e.preventDefault();
        document.getElementById("tables-search")?.focus();
      } else if (e.key === "ArrowDown" || (e.key === "j" && !typing)) {
        e.preventDefault();
        move(1);
      } else if (e.key === "ArrowUp" || (e.key === "k" && !typing)) {
        e.preventDefault();
        move(-1);
      } else if (e.key === "Enter" && selected >= 0 && rows[selected] && opensSelected(e.target, selected)) {
        // the selected row's own link opens itself; a link elsewhere on the page too
        e.preventDefault();
        router.push(tableHref(rows[selected].target, revision));
      }
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [move, rows, selected, router, revision, opensSelected, tables, view, onChange]);

  return (
    <div className="vlist" data-testid="tables-list" id="tables-grid" tabIndex={-1}>
      <div role="grid" aria-label="tables" aria-rowcount={rows.length + 1} aria-colcount={COLUMN_COUNT}>
        <div role="rowgroup">
          <ListHeader view={view} onChange={onChange} />
        </div>
        <div
          className="vlist-scroll"
          ref={scrollRef}
          data-testid="tables-scroll"
          role="rowgroup"
          aria-label={`${formatCount(rows.length)} tables`}
        >
          <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
            {virtualizer.getVirtualItems().map((item) => (
              <TableRow
                key={rows[item.index].target}
                table={rows[item.index]}
                index={item.index}
                top={item.start}
                height={rowHeight}
                selected={item.index === selected}
                href={tableHref(rows[item.index].target, revision)}
                onOpen={open}
              />
            ))}
          </div>
        </div>
      </div>
      {rows.length === 0 && (
        <div className="state state-empty" data-testid="tables-empty">
          No table matches these filters.
        </div>
      )}
      <div className="muted vlist-foot" data-testid="tables-count">
        {formatCount(rows.length)} of {formatCount(tables.length)} shown · <span className="kbd">j</span>/
        <span className="kbd">k</span> move · <span className="kbd">Enter</span> open (in the search box: the single
        match, else the first row) · <span className="kbd">/</span> search · <span className="kbd">Esc</span> clears it
        · <span className="wait-bound">≥</span> a wait of at least this long (the exact flush time was pruned)
      </div>
    </div>
  );
}
