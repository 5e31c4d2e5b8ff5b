// The input marks (./inputs.ts) answer what comparing every own key's mod_revision answers:
// for random puts and deletes of a table's keys, the marks at any two revisions differ, family
// by family, exactly when the family's set of (key, mod_revision) differs.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { executorsMoved, familiesMoved, marksOf, ownKeys, INPUT_FAMILIES, type InputFamily } from "./inputs";

const P = "/lc";
const own = ownKeys(P, "db/t");
// a few keys of each family: single keys, and keys under the table's prefixes
const KEYS = [
  ...own.single,
  `${own.prefixes[0]}shard-0/1`,
  `${own.prefixes[0]}shard-1/2`,
  `${own.prefixes[1]}w1`,
  `${own.prefixes[2]}u1`,
  `${own.prefixes[2]}u2`,
];

/** A family of a key the slow way: which of the three it is by name. */
function familyBySpelling(key: string): InputFamily {
  if (key.startsWith(`${P}/policies/`)) return "policy";
  return /\/(target-locks|merge-executions|merge-claims|catchup-active|compact-preparations|compact-commit-ready|assignments)\//.test(
    key,
  )
    ? "write_turn"
    : "demand";
}

describe("input marks", () => {
  it("differ between two revisions exactly when a family's keys or their mod_revisions differ", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(KEYS.length - 1), fc.boolean()), { minLength: 1, maxLength: 60 }), (ops) => {
        // revision r + 1 applies ops[r]: a put (true) or a delete (false, a no-op when absent: no revision then)
        const states: Map<string, number>[] = [new Map()];
        let revision = 1;
        for (const [k, put] of ops) {
          const next = new Map(states.at(-1)!);
          if (put) next.set(KEYS[k], ++revision);
          else if (next.delete(KEYS[k])) revision++;
          else continue;
          states.push(next);
        }
        const marks = states.map((s) =>
          marksOf(
            P,
            [...s].map(([key, modRevision]) => ({ key, modRevision })),
          ),
        );
        for (let a = 0; a < states.length; a++)
          for (let b = a; b < states.length; b++) {
            const expected = new Set<InputFamily>();
            for (const key of new Set([...states[a].keys(), ...states[b].keys()]))
              if (states[a].get(key) !== states[b].get(key)) expected.add(familyBySpelling(key));
            expect([...familiesMoved(marks[a], marks[b])].sort()).toEqual([...expected].sort());
          }
      }),
      { numRuns: 400 },
    );
  });

  it("name the families in order, and the executors whose capacity came, went or changed", () => {
    expect(INPUT_FAMILIES).toEqual(["demand", "policy", "write_turn"]);
    const a = new Map([
      ["w2", "x"],
      ["w1", "y"],
      ["w3", "z"],
    ]);
    const b = new Map([
      ["w1", "y"],
      ["w3", "z2"],
      ["w4", "q"],
    ]);
    expect(executorsMoved(a, b)).toEqual(["w2", "w3", "w4"]);
    expect(executorsMoved(a, new Map(a))).toEqual([]);
  });
});
