"use client";
// Class / backlog / substring filters; the URL holds them so a link reproduces the view.
import { useEffect, useState } from "react";
import { BacklogBadge, ClassBadge } from "@/components/ui/badges";
import { BACKLOG_CLASSES, CLASS_NAMES, type BacklogClass, type ClassName } from "@/lib/client/api-types";
import type { ListView } from "./list-view";

function toggle<T>(list: T[], value: T): T[] {
  return list.includes(value) ? list.filter((v) => v !== value) : [...list, value];
}

export function FilterBar({ view, onChange }: { view: ListView; onChange: (v: ListView) => void }) {
  const [q, setQ] = useState(view.q);
  // the view's query moved (a link, Esc): the box follows it, set while rendering (not in an effect)
  const [shownQ, setShownQ] = useState(view.q);
  if (shownQ !== view.q) {
    setShownQ(view.q);
    setQ(view.q);
  }
  // Type freely; the URL follows a moment later.
  useEffect(() => {
    if (q === view.q) return;
    const timer = setTimeout(() => onChange({ ...view, q }), 150);
    return () => clearTimeout(timer);
  }, [q, view, onChange]);

  return (
    <div className="toolbar" role="search">
      <input
        id="tables-search"
        type="search"
        placeholder="filter by target  ( / )"
        value={q}
        onChange={(e) => setQ(e.target.value)}
        onKeyDown={(e) => {
          // Esc clears the filter at once (no debounce); a second Esc leaves the field.
          if (e.key !== "Escape") return;
          e.preventDefault();
          if (q || view.q) {
            setQ("");
            onChange({ ...view, q: "" });
          } else e.currentTarget.blur();
        }}
        aria-label="filter by target substring"
      />
      <span className="muted">class</span>
      {CLASS_NAMES.map((c: ClassName) => (
        <label key={c} className="chip">
          <input
            type="checkbox"
            checked={view.classes.includes(c)}
            onChange={() => onChange({ ...view, classes: toggle(view.classes, c) })}
            data-testid={`filter-class-${c}`}
            aria-label={`class ${c.replace("_", " ")}`}
          />
          <ClassBadge name={c} />
        </label>
      ))}
      <span className="muted">backlog</span>
      {BACKLOG_CLASSES.map((b: BacklogClass) => (
        <label key={b} className="chip">
          <input
            type="checkbox"
            checked={view.backlogs.includes(b)}
            onChange={() => onChange({ ...view, backlogs: toggle(view.backlogs, b) })}
            data-testid={`filter-backlog-${b}`}
            aria-label={`backlog ${b}`}
          />
          <BacklogBadge name={b} />
        </label>
      ))}
      {(view.classes.length > 0 || view.backlogs.length > 0 || view.q) && (
        <button type="button" onClick={() => onChange({ ...view, classes: [], backlogs: [], q: "" })}>
          clear
        </button>
      )}
    </div>
  );
}
