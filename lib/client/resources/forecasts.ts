// How often the forecasts came true (console-api.md "Forecasts, per world …"): the query key
// carries the pinned revision and the window, so a pin pins it too.
import type { CalibrationResponse } from "@/lib/schema/api/forecasts";
import { fetchJson } from "../fetch-json";

export const forecastKeys = {
  calibration: (revision: number | null, windowMs: number) =>
    ["forecast-calibration", revision ?? "live", windowMs] as const,
};

export const fetchCalibration = (revision: number | null, windowMs: number, signal?: AbortSignal) =>
  fetchJson<CalibrationResponse>("/api/v1/forecasts/calibration", { revision, window_ms: windowMs }, signal);
