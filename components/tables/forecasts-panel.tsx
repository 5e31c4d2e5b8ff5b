// When a table's turn may come, in each world (console-api.md "Forecasts, per world, that say
// how often they come true"): the acting world first — "the legacy queue acts on this table"
// while its mode is not planner — then the other as a what-if ("if the planner ran this
// table"). Each gives its place, the interval with its stated level and the server's basis
// sentence as given; an earlier forecast whose interval ended without the turn is said to be
// overdue, with how long.
import type { TableDetail } from "@/lib/client/api-types";
import { etaWords, overdueForecastWords, worldLabel } from "@/lib/words/forecasts";
import { positionText } from "@/lib/words/place-in-line";

type Forecast = TableDetail["forecasts"][number];

function WorldForecast({ f }: { f: Forecast }) {
  const where =
    f.position === null
      ? null
      : f.world === "legacy"
        ? `${positionText(f.position)} queued ${f.position.kind} tasks`
        : `${positionText(f.position)} in the planner's ${f.position.kind} line`;
  return (
    <div style={{ marginTop: 6 }} data-testid={`forecast-${f.world}`} data-acting={f.acting ? "true" : "false"}>
      <strong data-testid="forecast-world">{worldLabel(f.world, f.acting)}</strong>
      {where && (
        <>
          {" "}
          · place <span data-testid="forecast-position">{where}</span>
        </>
      )}
      <div>
        Its turn may come: <strong data-testid="eta">{etaWords(f.eta)}</strong>{" "}
        <span className="muted" data-testid="forecast-basis">
          ({f.basis})
        </span>
      </div>
      {f.overdue && (
        <div className="explain explain-skip" role="note" data-testid="forecast-overdue">
          <span className="tag tag-warn">overdue</span> {overdueForecastWords(f.overdue)}
        </div>
      )}
    </div>
  );
}

export function ForecastsPanel({ table: t }: { table: TableDetail }) {
  if (t.pending_generations === 0 && t.units.length === 0) return null;
  return (
    <div className="explain" data-testid="place-in-line">
      {t.forecasts.map((f) => (
        <WorldForecast key={f.world} f={f} />
      ))}
    </div>
  );
}
