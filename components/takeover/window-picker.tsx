"use client";
// The evidence window (1 h, 6 h, 24 h, 7 days), kept in the URL (`?window_ms=`) so a link shows the same report.
import { usePathname, useRouter, useSearchParams } from "next/navigation";

export const WINDOWS: ReadonlyArray<{ ms: number; label: string }> = [
  { ms: 3_600_000, label: "1 h" },
  { ms: 21_600_000, label: "6 h" },
  { ms: 86_400_000, label: "24 h" },
  { ms: 604_800_000, label: "7 days" },
];
const DEFAULT_MS = 86_400_000;

export function useWindowMs(): [number, (ms: number) => void] {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const raw = Number(params.get("window_ms"));
  const ms = WINDOWS.some((w) => w.ms === raw) ? raw : DEFAULT_MS;
  const set = (next: number) => {
    const q = new URLSearchParams(params.toString());
    q.set("window_ms", String(next));
    router.replace(`${pathname}?${q.toString()}`);
  };
  return [ms, set];
}

export function WindowPicker({ value, onChange }: { value: number; onChange: (ms: number) => void }) {
  return (
    <span role="group" aria-label="window" data-testid="window-picker">
      {WINDOWS.map((w) => (
        <button
          key={w.ms}
          type="button"
          aria-pressed={w.ms === value}
          onClick={() => onChange(w.ms)}
          style={{ marginLeft: 4, fontWeight: w.ms === value ? 700 : 400 }}
        >
          {w.label}
        </button>
      ))}
    </span>
  );
}
