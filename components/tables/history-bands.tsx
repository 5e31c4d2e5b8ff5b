"use client";
// The history chart's class and verdict bands, with the hover: a band says the segment under
// the pointer as its title (the drawing is ./history-bands-figure.tsx).
import { useState } from "react";
import type { HistoryResponse } from "@/lib/client/resources/table-history";
import { BandsFigure, BandTrack, segmentAt, type Segment } from "./history-bands-figure";

function HoveredBand({
  name,
  segments,
  fromMs,
  toMs,
}: {
  name: string;
  segments: Segment[];
  fromMs: number;
  toMs: number;
}) {
  const [hovered, setHovered] = useState<Segment | null>(null);
  return (
    <BandTrack
      name={name}
      segments={segments}
      fromMs={fromMs}
      toMs={toMs}
      hovered={hovered}
      onMouseMove={(e) => {
        const found = segmentAt(segments, fromMs, toMs, e);
        if (found !== hovered) setHovered(found);
      }}
      onMouseLeave={() => setHovered(null)}
    />
  );
}

export function Bands({ h }: { h: HistoryResponse }) {
  return <BandsFigure h={h} Track={HoveredBand} />;
}
