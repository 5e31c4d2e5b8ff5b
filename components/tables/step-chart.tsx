"use client";
// The history's step chart, interactive (the drawing is ./step-chart-figure.tsx): it measures
// its box and draws to it; hovering (or focusing and using the arrow keys) reads out the
// nearest point; the data table beside the chart has every value.
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from "react";
import { atOrBefore, geometry, linesOf, PAD, StepChartFigure, type StepChartProps } from "./step-chart-figure";

export function StepChart(props: StepChartProps) {
  const { times, fromMs } = props;
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [focus, setFocus] = useState<number | null>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setWidth(el.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const { plotW, span } = geometry(props, width);
  // ~1,800 points a line: drawn again when the data or the width change, not as the pointer moves
  const lines = useMemo(() => linesOf(props, width), [props, width]);
  const pick = (clientX: number) => {
    const rect = box.current?.getBoundingClientRect();
    if (!rect || times.length === 0) return;
    const t = fromMs + ((clientX - rect.left - PAD.left) / plotW) * span;
    setFocus(atOrBefore(times, t));
  };
  const onKey = (e: KeyboardEvent) => {
    if (times.length === 0) return;
    const step =
      e.key === "ArrowRight"
        ? 1
        : e.key === "ArrowLeft"
          ? -1
          : e.key === "End"
            ? times.length
            : e.key === "Home"
              ? -times.length
              : 0;
    if (step === 0) return;
    e.preventDefault();
    setFocus((f) => Math.min(times.length - 1, Math.max(0, (f ?? (step > 0 ? -1 : times.length)) + step)));
  };

  return (
    <StepChartFigure
      {...props}
      width={width}
      focus={focus}
      lines={lines}
      boxRef={box}
      onMouseMove={(e: MouseEvent) => pick(e.clientX)}
      onMouseLeave={() => setFocus(null)}
      onKeyDown={onKey}
      onBlur={() => setFocus(null)}
    />
  );
}
