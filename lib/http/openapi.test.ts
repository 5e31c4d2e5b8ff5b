// The OpenAPI document covers every route handler under app/api, and lints clean with
// Redocly CLI under the committed rules (redocly.yaml): no error, no warning.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { ENDPOINTS, openApiDocument } from "./openapi";

const ROOT = path.resolve(__dirname, "../..");
const run = promisify(execFile);

/** `app/api/v1/policies/[target]/route.ts` exporting GET → "get /api/v1/policies/{target}". */
function routeOperations(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      // a catch-all (`[...unknown]`) only turns unknown /api paths into JSON 404s: not an endpoint
      if (e.isDirectory()) {
        if (!e.name.startsWith("[...")) walk(full);
      } else if (e.name === "route.ts") {
        const route =
          "/" +
          path
            .relative(path.join(ROOT, "app"), dir)
            .split(path.sep)
            .map((s) => s.replace(/^\[(.+)\]$/, "{$1}"))
            .join("/");
        const source = fs.readFileSync(full, "utf8");
        for (const m of source.matchAll(/export (?:const|async function) (GET|PUT|POST|DELETE|PATCH)\b/g))
          out.push(`${m[1].toLowerCase()} ${route}`);
      }
    }
  };
  walk(path.join(ROOT, "app/api"));
  return out.sort();
}

describe("OpenAPI document", () => {
  it("has one entry per route handler method, and no entry without a handler", () => {
    const documented = ENDPOINTS.map((e) => `${e.method} ${e.path}`).sort();
    expect(documented).toEqual(routeOperations());
  });

  it("documents the write side: bodies, headers, security and error responses", () => {
    const doc = openApiDocument() as {
      paths: Record<
        string,
        Record<
          string,
          {
            parameters?: { $ref?: string }[];
            requestBody?: unknown;
            security: unknown[];
            responses: Record<string, unknown>;
          }
        >
      >;
    };
    const put = doc.paths["/api/v1/policies/{target}"].put;
    expect(put.parameters?.map((p) => p.$ref).filter(Boolean)).toEqual([
      "#/components/parameters/IfMatch",
      "#/components/parameters/XChangeReason",
      "#/components/parameters/XPreviewDigest",
      "#/components/parameters/XEvidenceDigest",
      "#/components/parameters/XOverrideGates",
      "#/components/parameters/XOverrideReason",
    ]);
    expect(put.requestBody).toBeDefined();
    expect(put.security).toEqual([{ bearer: [] }, { session: [] }]);
    expect(Object.keys(put.responses).sort()).toEqual([
      "200",
      "400",
      "401",
      "403",
      "409",
      "412",
      "413",
      "415",
      "422",
      "428",
      "503",
      "504",
    ]);
  });

  it("lists ?min_revision on every read at one revision (GET with ?revision), and nowhere else", () => {
    const doc = openApiDocument() as {
      paths: Record<string, Record<string, { parameters?: { name?: string }[] }>>;
    };
    const named = (op: { parameters?: { name?: string }[] }, name: string) =>
      (op.parameters ?? []).some((p) => p.name === name);
    let reads = 0;
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const read = method === "get" && named(op, "revision");
        if (read) reads++;
        expect(named(op, "min_revision"), `${method} ${p}`).toBe(read);
      }
    }
    expect(reads).toBeGreaterThan(10);
    expect(doc.paths["/api/v1/scheduler/executors"].get.parameters?.map((p) => p.name)).toContain("min_revision");
  });

  it("lints clean with redocly (recommended rules, raised in redocly.yaml)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "openapi-"));
    const file = path.join(dir, "openapi.json");
    fs.writeFileSync(file, JSON.stringify(openApiDocument(), null, 2));
    let output: string;
    try {
      const r = await run(
        path.join(ROOT, "node_modules/.bin/redocly"),
        ["lint", file, "--config", path.join(ROOT, "redocly.yaml"), "--format", "stylish"],
        { cwd: ROOT, env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" } },
      );
      output = `${r.stdout}\n${r.stderr}`;
    } catch (e) {
      const err = e as { stdout?: string; stderr?: string };
      throw new Error(`redocly lint failed:\n${err.stdout ?? ""}\n${err.stderr ?? ""}`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(output).toMatch(/Woohoo! Your API description is valid|valid/i);
    expect(output).not.toMatch(/^\s*\d+:\d+\s+(warning|error)\b/m);
    expect(output).not.toMatch(/You have \d+ warning/);
  }, 60_000);
});
