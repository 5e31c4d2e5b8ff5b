import { apiHandler } from "@/lib/http/handler";
import { forecastCalibration } from "@/lib/time/forecast-calibration";
import { calibrationQuerySchema } from "@/lib/schema/api/forecasts";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

// GET /api/v1/forecasts/calibration?window_ms=: each world's forecasts over a window and how often they came true.
export const GET = apiHandler(
  { route: "/api/v1/forecasts/calibration", query: calibrationQuerySchema },
  async ({ query }) => forecastCalibration(query),
);
