// Wire number types (scheduler-model.md §2, §12). JSON numbers are read as plain JS numbers:
// fine for production sizes; values past 2^53 lose precision, as §12 accepts.
import { z } from "zod";

/** Rust u64/u32: a finite non-negative integer (any magnitude; not limited to 2^53). */
export const U64Schema = z
  .number()
  .refine((n) => Number.isInteger(n) && n >= 0, { message: "expected a non-negative integer" });
export const U32Schema = z
  .number()
  .refine((n) => Number.isInteger(n) && n >= 0 && n <= 4_294_967_295, { message: "expected a u32" });
/** Rust i64 (timestamps in Unix ms may be negative in principle). */
export const I64Schema = z.number().refine((n) => Number.isInteger(n), { message: "expected an integer" });

/** Largest u64, as the nearest JS number (used for saturating sums, §5.2). */
export const U64_MAX = 18_446_744_073_709_551_615;
