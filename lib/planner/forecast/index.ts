// Forecasts per world (console-api.md "Forecasts, per world, that say how often they come true"). Pure.
export { legacyLine, legacyStanding, type LegacyLine, type LegacyInputs } from "./legacy";
export { plannerStanding } from "./planner-world";
export { actingWorld, forecastOf, tableForecasts, type ForecastEta, type TableForecast } from "./forecasts";
export { calibrationKey, NO_CALIBRATION, type Calibration } from "./calibration";
export type { Standing } from "./standing";
