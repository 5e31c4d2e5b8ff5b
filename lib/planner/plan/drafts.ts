// Each table's draft by target, kept across re-plans without copying 13k entries each
// time: a base map plus the drafts changed since, folded into a new base once the changes
// grow. A `Drafts` is never mutated once handed out (an older plan may still be patched).
import type { TableDraft } from "./table";

/** deleted tables are `null` in the overlay */
type Overlay = ReadonlyMap<string, TableDraft | null>;

function lookup(base: ReadonlyMap<string, TableDraft>, over: Overlay, target: string): TableDraft | undefined {
  const changed = over.get(target);
  return changed === undefined ? base.get(target) : (changed ?? undefined);
}

export class Drafts {
  constructor(
    private readonly base: ReadonlyMap<string, TableDraft>,
    private readonly over: Overlay = new Map(),
  ) {}

  get(target: string): TableDraft | undefined {
    return lookup(this.base, this.over, target);
  }

  /** A writable copy for the next plan (this one is left as it is). */
  edit(): DraftsEdit {
    return new DraftsEdit(this.base, new Map(this.over));
  }
}

export class DraftsEdit {
  constructor(
    private readonly base: ReadonlyMap<string, TableDraft>,
    private readonly over: Map<string, TableDraft | null>,
  ) {}

  get(target: string): TableDraft | undefined {
    return lookup(this.base, this.over, target);
  }

  set(target: string, draft: TableDraft): void {
    this.over.set(target, draft);
  }

  delete(target: string): void {
    this.over.set(target, null);
  }

  /** The drafts as edited; the overlay is folded into a new base past 1/16 of it. */
  done(): Drafts {
    if (this.over.size <= 64 + this.base.size / 16) return new Drafts(this.base, this.over);
    const base = new Map(this.base);
    for (const [target, draft] of this.over) {
      if (draft) base.set(target, draft);
      else base.delete(target);
    }
    return new Drafts(base);
  }
}
