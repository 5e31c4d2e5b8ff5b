// "Preview this default" (the facts page) opens the policy editor with `?prefill=<JSON document>`.
import type { PolicyDocument } from "@/lib/schema/policy";

export const PREFILL_PARAM = "prefill";

/** The prefilled document of the URL (a plain object), or null. The form validates it like any edit. */
export function prefillDoc(raw: string | null): PolicyDocument | null {
  if (!raw || raw.length > 4096) return null;
  try {
    const doc: unknown = JSON.parse(raw);
    return doc !== null && typeof doc === "object" && !Array.isArray(doc) ? (doc as PolicyDocument) : null;
  } catch {
    return null;
  }
}
