// The soak's chart (bench/soak.ts): one panel per figure over the run's minutes, drawn as
// SVG and rendered to PNG by Chromium, so README.md can show it.
import type { Browser } from "playwright-core";

export interface Series {
  name: string;
  color: string;
  points: { x: number; y: number }[];
}

export interface Panel {
  title: string;
  unit: string;
  series: Series[];
}

const W = 560;
const H = 220;
const PAD = { left: 56, right: 16, top: 30, bottom: 34 };
const COLS = 2;

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");
const fmt = (n: number) =>
  Math.abs(n) >= 1000 ? `${Math.round(n).toLocaleString("en-US")}` : `${Math.round(n * 10) / 10}`;

/** The least of 1, 2, 2.5 or 5 × 10^k at or above `y`, so the four gridlines fall on round numbers. */
function niceCeiling(y: number): number {
  const base = 10 ** Math.floor(Math.log10(y));
  return [1, 2, 2.5, 5, 10].map((m) => m * base).find((v) => v >= y)!;
}

function panelSvg(panel: Panel, xMax: number, warmupX: number): string {
  const ys = panel.series.flatMap((s) => s.points.map((p) => p.y));
  const yMax = niceCeiling(Math.max(1, ...ys) * 1.05);
  const px = (x: number) => PAD.left + (x / Math.max(1, xMax)) * (W - PAD.left - PAD.right);
  const py = (y: number) => H - PAD.bottom - (y / yMax) * (H - PAD.top - PAD.bottom);
  const parts: string[] = [
    `<rect x="0" y="0" width="${W}" height="${H}" fill="#fff" stroke="#ddd"/>`,
    `<text x="${PAD.left}" y="18" font-size="13" font-weight="600">${esc(panel.title)} <tspan font-weight="400" fill="#666">(${esc(panel.unit)})</tspan></text>`,
    `<rect x="${PAD.left}" y="${PAD.top}" width="${px(warmupX) - PAD.left}" height="${H - PAD.top - PAD.bottom}" fill="#f3f3f3"/>`,
  ];
  for (let i = 0; i <= 4; i++) {
    const y = (yMax / 4) * i;
    parts.push(
      `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${py(y)}" y2="${py(y)}" stroke="#eee"/>`,
      `<text x="${PAD.left - 6}" y="${py(y) + 4}" font-size="10" text-anchor="end" fill="#555">${fmt(y)}</text>`,
    );
  }
  for (let m = 0; m <= xMax; m += xMax > 30 ? 10 : 5)
    parts.push(
      `<text x="${px(m)}" y="${H - PAD.bottom + 14}" font-size="10" text-anchor="middle" fill="#555">${m}</text>`,
    );
  parts.push(`<text x="${W - PAD.right}" y="${H - 6}" font-size="10" text-anchor="end" fill="#555">minutes</text>`);
  panel.series.forEach((s, i) => {
    const d = s.points.map((p, j) => `${j === 0 ? "M" : "L"}${px(p.x).toFixed(1)},${py(p.y).toFixed(1)}`).join("");
    if (d) parts.push(`<path d="${d}" fill="none" stroke="${s.color}" stroke-width="2"/>`);
    for (const p of s.points) parts.push(`<circle cx="${px(p.x)}" cy="${py(p.y)}" r="2.5" fill="${s.color}"/>`);
    parts.push(
      `<text x="${PAD.left + 8 + (i % 3) * 160}" y="${PAD.top + 12 + Math.floor(i / 3) * 13}" font-size="10.5" fill="${s.color}">■ ${esc(s.name)}</text>`,
    );
  });
  return parts.join("");
}

/** The panels side by side, two a row, the warm-up shaded. */
export function chartSvg(title: string, panels: Panel[], xMax: number, warmupX: number): string {
  const rows = Math.ceil(panels.length / COLS);
  const width = COLS * W + (COLS + 1) * 10;
  const height = rows * H + (rows + 1) * 10 + 30;
  const body = panels
    .map((p, i) => {
      const x = 10 + (i % COLS) * (W + 10);
      const y = 40 + Math.floor(i / COLS) * (H + 10);
      return `<g transform="translate(${x},${y})">${panelSvg(p, xMax, warmupX)}</g>`;
    })
    .join("");
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif">` +
    `<rect width="100%" height="100%" fill="#fafafa"/><text x="10" y="26" font-size="15" font-weight="600">${esc(title)}</text>` +
    `${body}</svg>`
  );
}

/** The SVG as a PNG (Chromium's rendering). */
export async function renderPng(browser: Browser, svg: string): Promise<Buffer> {
  const width = Number(/width="(\d+)"/.exec(svg)?.[1] ?? 1200);
  const height = Number(/height="(\d+)"/.exec(svg)?.[1] ?? 800);
  const page = await browser.newPage({ viewport: { width, height } });
  try {
    await page.setContent(`<html><body style="margin:0">${svg}</body></html>`);
    return await page.screenshot({ clip: { x: 0, y: 0, width, height } });
  } finally {
    await page.close();
  }
}
