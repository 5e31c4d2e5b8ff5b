// Where an effective value comes from (console-api.md `sources`): built-in defaults, the
// fleet default, or the table's own document.
import type { PolicyResponse } from "@/lib/schema/api/policies";

export type FieldSource = PolicyResponse["sources"]["fields"][string];
