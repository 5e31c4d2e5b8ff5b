import { apiHandler, forecastCalibration, calibrationQuerySchema } from "@scheduler-console/engine";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/forecasts/calibration?window_ms=: each world's forecasts over a window and how often they came true.
export const GET = apiHandler(
  { route: "/api/v1/forecasts/calibration", query: calibrationQuerySchema },
  async ({ query }) => forecastCalibration(query),
);
