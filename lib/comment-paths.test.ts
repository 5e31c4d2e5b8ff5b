// Comments point at things that exist (../shared/STYLE.md "What a third review found"): every
// file a comment names in app/, components/, lib/, bin/, scripts/, bench/ and test/ resolves,
// so a move that leaves a comment behind fails `npm test`. The rule:
// * a name with a slash and an extension is a path: one that starts with `./` or `../` from
//   the commenting file's folder, `@/` from the repository root (as imports say it), any
//   other from the repository root (`lib/layers.test.ts`), or else from node_modules (a
//   package's own file, as `next/dist/…` names one);
// * a bare file name names a file in the commenting file's own folder or at the root
//   (`layers.test.ts` here, `package.json`);
// * allowed as they are, exactly these: the specs beside the repository
//   (`console-api.md`, `scheduler-model.md`, `STYLE.md`, also as `../shared/spec/…`), and
//   what a run writes, named under the folder it writes to (`bench/results/…`, `.next/…`, `.next-engine/…`);
// * URLs are not paths, nor absolute paths, nor the names of runtimes (`Next.js`, `Node.js`).
// Comments are found with TypeScript's scanner, so a `//` inside a string is not one.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..");
const FOLDERS = ["app", "components", "lib", "bin", "scripts", "bench", "test"];
const CODE = /\.(tsx?|mjs|cjs|js)$/;
const EXT = String.raw`\.(?:tsx?|mjs|cjs|js|json|md|sh|ya?ml|css|txt)`;
/** a path segment: a name, a route group `(console)` or a dynamic segment `[target]` */
const SEG = String.raw`(?:\(\w[\w-]*\)|\[[\w.]+\]|[\w@.-]+)`;
const NAMED = new RegExp(String.raw`(?<![\w/.:@\-])((?:${SEG}/)+${SEG}${EXT}|[\w-]+${EXT})(?![\w/])`, "g");
const SPECS = /^(?:(?:\.\.\/)*shared\/(?:spec\/)?)?(?:console-api|scheduler-model|STYLE)\.md$/;
const WRITTEN = /^(?:bench\/results|\.next|\.next-engine)\//;
/** products named with a file extension, not files */
const PRODUCTS = new Set(["Next.js", "Node.js"]);

function* codeFiles(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== "node_modules" && !e.name.startsWith(".")) yield* codeFiles(p);
    } else if (CODE.test(e.name)) yield p;
  }
}

/** the text of every comment in a file, found by TypeScript's scanner */
function commentsOf(file: string, text: string): string[] {
  const tsx = /\.(tsx|jsx)$/.test(file);
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    tsx ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found = new Map<number, string>();
  const add = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) found.set(r.pos, text.slice(r.pos, r.end));
  };
  const visit = (node: ts.Node) => {
    add(ts.getLeadingCommentRanges(text, node.pos));
    add(ts.getTrailingCommentRanges(text, node.end));
    node.forEachChild(visit);
  };
  visit(source);
  return [...found.values()];
}

/** where a named path points, or null when the rule allows it as it is */
function target(file: string, named: string): string | null {
  if (SPECS.test(named) || WRITTEN.test(named) || PRODUCTS.has(named)) return null;
  if (named.startsWith("./") || named.startsWith("../")) return path.resolve(path.dirname(file), named);
  if (named.startsWith("@/")) return path.join(ROOT, named.slice(2));
  const [first, second] = named.includes("/")
    ? [path.join(ROOT, named), path.join(ROOT, "node_modules", named)]
    : [path.join(path.dirname(file), named), path.join(ROOT, named)];
  return existsSync(first) ? first : second;
}

function missingPaths(): { checked: number; missing: string[] } {
  let checked = 0;
  const missing: string[] = [];
  for (const folder of FOLDERS)
    for (const file of codeFiles(path.join(ROOT, folder))) {
      const text = readFileSync(file, "utf8");
      for (const comment of commentsOf(file, text))
        for (const [, named] of comment.replace(/\b[a-z][\w+.-]*:\/\/\S+/g, "").matchAll(NAMED)) {
          const to = target(file, named);
          if (to !== null) checked += 1;
          if (to !== null && !existsSync(to)) missing.push(`${path.relative(ROOT, file)}: ${named}`);
        }
    }
  return { checked, missing: missing.sort() };
}

describe("comment paths", () => {
  it("every file a comment names exists", () => {
    const { checked, missing } = missingPaths();
    expect(missing).toEqual([]);
    // the scan reads the comments (over a thousand paths and names when this was written)
    expect(checked).toBeGreaterThan(500);
  }, 60_000);

  it("reads the rule as written: relative, rooted, bare, spec and URL", () => {
    const file = path.join(ROOT, "lib/live/cache.ts");
    expect(target(file, "./plan.ts")).toBe(path.join(ROOT, "lib/live/plan.ts"));
    expect(target(file, "../time/diff.ts")).toBe(path.join(ROOT, "lib/time/diff.ts"));
    expect(target(file, "lib/time/diff.ts")).toBe(path.join(ROOT, "lib/time/diff.ts"));
    expect(target(file, "@/lib/time/diff.ts")).toBe(path.join(ROOT, "lib/time/diff.ts"));
    expect(target(file, "plan.ts")).toBe(path.join(ROOT, "lib/live/plan.ts"));
    expect(target(file, "package.json")).toBe(path.join(ROOT, "package.json"));
    expect(target(file, "gone.ts")).toBe(path.join(ROOT, "gone.ts"));
    expect(target(file, "next/dist/x.js")).toBe(path.join(ROOT, "node_modules/next/dist/x.js"));
    expect(target(file, "../shared/spec/console-api.md")).toBeNull();
    expect(target(file, "console-api.md")).toBeNull();
    expect(target(file, "bench/results/report.md")).toBeNull();
    const named = (comment: string) => [...comment.matchAll(NAMED)].map((m) => m[1]);
    expect(named("// see lib/live/plan.ts and ./view.ts, (app/(console)/tables/[target]/page.tsx)")).toEqual([
      "lib/live/plan.ts",
      "./view.ts",
      "app/(console)/tables/[target]/page.tsx",
    ]);
    expect(commentsOf("x.ts", 'const u = "http://a/b.ts"; // gone.ts\n/* lib/util/lazily.ts */')).toEqual([
      "// gone.ts",
      "/* lib/util/lazily.ts */",
    ]);
  });
});
