// A usage bar: reserved out of total (headroom is total − reserved, spec §5.2).
export function UsageBar({ used, total, label }: { used: number; total: number; label: string }) {
  const ratio = total > 0 ? Math.min(1, used / total) : 0;
  const tone = total === 0 ? "unknown" : ratio >= 1 ? "full" : ratio >= 0.75 ? "high" : "ok";
  return (
    <div
      className={`bar bar-${tone}`}
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={total}
      aria-valuenow={used}
    >
      <div className="bar-fill" style={{ width: `${(ratio * 100).toFixed(1)}%` }} />
    </div>
  );
}
