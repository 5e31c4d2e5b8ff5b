// Reads the JSON reports of vitest and Playwright and prints the one line CI reads:
// `N passed, N failed`. A stage that exited non-zero without a report (a crash, a failed
// build) counts as one failure, so a broken suite can never look green.
import fs from "node:fs";
import path from "node:path";

const dir = "reports";
let passed = 0;
let failed = 0;
let skipped = 0;
const lines = [];
const read = (f) => (fs.existsSync(`${dir}/${f}`) ? JSON.parse(fs.readFileSync(`${dir}/${f}`, "utf8")) : null);
const stageRc = (name) =>
  fs.existsSync(`${dir}/${name}.stage`) ? Number(fs.readFileSync(`${dir}/${name}.stage`, "utf8").trim()) : null;

for (const name of ["unit", "integration"]) {
  const rc = stageRc(name);
  if (rc === null) continue;
  const report = read(`${name}.json`);
  if (!report) {
    failed += 1;
    lines.push(`${name}: no report (exit ${rc}), counted as 1 failure`);
    continue;
  }
  const p = report.numPassedTests ?? 0;
  const f = (report.numFailedTests ?? 0) + (rc !== 0 && !report.numFailedTests ? 1 : 0);
  const s = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  if (report.numTotalTests === 0 && rc === 0) lines.push(`${name}: ran no test`);
  for (const file of report.testResults ?? []) {
    if (file.status === "failed" && (file.assertionResults ?? []).every((a) => a.status !== "failed")) {
      lines.push(`${name}: ${file.name} failed to load: ${(file.message ?? "").split("\n")[0]}`);
    }
    // each failure by name and its first line, so CI's tail says which test failed and why
    for (const a of file.assertionResults ?? []) {
      if (a.status !== "failed") continue;
      const why = (a.failureMessages ?? [""])[0].split("\n")[0].slice(0, 300);
      lines.push(`${name} FAILED: ${path.relative(process.cwd(), file.name)} › ${a.fullName}: ${why}`);
    }
  }
  passed += p;
  failed += f;
  skipped += s;
  lines.push(`${name}: ${p} passed, ${f} failed, ${s} skipped`);
}

// the static checks count one each: a pass, or a failure that names the tool
for (const [name, what] of [
  ["eslint", "ESLint"],
  ["prettier", "Prettier --check"],
  ["knip", "knip (unused files, exports, dependencies)"],
]) {
  const rc = stageRc(name);
  if (rc === null) continue;
  if (rc === 0) {
    passed += 1;
    lines.push(`${name}: ${what} ok`);
  } else {
    failed += 1;
    lines.push(`${name}: ${what} failed (exit ${rc})`);
  }
}

const buildRc = stageRc("build");
if (buildRc !== null) {
  if (buildRc === 0) {
    passed += 1;
    lines.push("build: next build ok");
  } else {
    failed += 1;
    lines.push(`build: next build failed (exit ${buildRc})`);
  }
}

const e2eRc = stageRc("e2e");
if (e2eRc !== null) {
  const report = read("e2e.json");
  if (!report) {
    failed += 1;
    lines.push(`e2e: no report (exit ${e2eRc}), counted as 1 failure`);
  } else {
    const st = report.stats ?? {};
    const p = (st.expected ?? 0) + (st.flaky ?? 0);
    const f = (st.unexpected ?? 0) + ((report.errors ?? []).length > 0 ? 1 : 0);
    passed += p;
    failed += f;
    skipped += st.skipped ?? 0;
    lines.push(`e2e: ${p} passed, ${f} failed, ${st.skipped ?? 0} skipped${st.flaky ? ` (${st.flaky} flaky)` : ""}`);
    for (const e of report.errors ?? []) lines.push(`e2e error: ${(e.message ?? "").split("\n")[0]}`);
    const walk = (suite, where) => {
      for (const spec of suite.specs ?? []) {
        for (const t of spec.tests ?? []) {
          if (t.status !== "unexpected") continue;
          const last = (t.results ?? []).at(-1);
          const why = (last?.error?.message ?? "").split("\n")[0].slice(0, 300);
          lines.push(`e2e FAILED: ${where}${spec.file}:${spec.line} › ${spec.title}: ${why}`);
        }
      }
      for (const s of suite.suites ?? []) walk(s, where);
    };
    for (const s of report.suites ?? []) walk(s, "");
  }
}

for (const l of lines) console.log(l);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
