// `npx tsx bench/heap-diff.ts <earlier.heapsnapshot> <later.heapsnapshot>` (or one file: what
// it holds): what grew in the
// console's heap between two snapshots of ONE process (`npm run soak -- --heap-snapshots
// 5,15,30` writes them). Prints the growth by constructor (self size and count), then the
// objects whose part of the heap grew most, each with its path from the roots. An object's
// part is what hangs below it in the shortest-path tree from the GC roots (an approximation
// of V8's retained size that needs no dominator tree), matched across the snapshots by
// V8's object id, which is stable within one process. The files are too large for
// JSON.parse (a 400 MiB heap writes ~1 GB): the number arrays are scanned byte by byte.
import fs from "node:fs";

interface Heap {
  nodeFields: number;
  nodes: Uint32Array;
  edgeFields: number;
  edges: Uint32Array;
  strings: string[];
  nodeTypes: string[];
  edgeTypes: string[];
  f: { type: number; name: number; id: number; self: number; edgeCount: number };
  e: { type: number; name: number; to: number };
}

function scanNumbers(buf: Buffer, from: number, out: Uint32Array): number {
  let i = from;
  let n = 0;
  let v = 0;
  let inNumber = false;
  for (; n < out.length; i++) {
    const c = buf[i];
    if (c >= 48 && c <= 57) {
      v = v * 10 + (c - 48);
      inNumber = true;
    } else if (inNumber) {
      out[n++] = v;
      v = 0;
      inNumber = false;
    }
  }
  return i;
}

function scanStrings(buf: Buffer, from: number): string[] {
  const out: string[] = [];
  let i = from;
  for (;;) {
    while (buf[i] !== 34 && buf[i] !== 93) i++; // '"' or ']'
    if (buf[i] === 93) return out;
    let j = i + 1;
    while (buf[j] !== 34) j += buf[j] === 92 ? 2 : 1;
    out.push(JSON.parse(buf.toString("utf8", i, j + 1)) as string);
    i = j + 1;
  }
}

function load(file: string): Heap {
  const buf = fs.readFileSync(file);
  const nodesAt = buf.indexOf('"nodes":[');
  const head = JSON.parse(`${buf.toString("utf8", 0, nodesAt).replace(/,\s*$/, "")}}`) as {
    snapshot: {
      meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] };
      node_count: number;
      edge_count: number;
    };
  };
  const { meta } = head.snapshot;
  const nodes = new Uint32Array(head.snapshot.node_count * meta.node_fields.length);
  const afterNodes = scanNumbers(buf, nodesAt + 9, nodes);
  const edgesAt = buf.indexOf('"edges":[', afterNodes);
  const edges = new Uint32Array(head.snapshot.edge_count * meta.edge_fields.length);
  const afterEdges = scanNumbers(buf, edgesAt + 9, edges);
  const strings = scanStrings(buf, buf.indexOf('"strings":[', afterEdges) + 11);
  const nf = (k: string) => meta.node_fields.indexOf(k);
  const ef = (k: string) => meta.edge_fields.indexOf(k);
  return {
    nodeFields: meta.node_fields.length,
    nodes,
    edgeFields: meta.edge_fields.length,
    edges,
    strings,
    nodeTypes: meta.node_types[0],
    edgeTypes: meta.edge_types[0],
    f: { type: nf("type"), name: nf("name"), id: nf("id"), self: nf("self_size"), edgeCount: nf("edge_count") },
    e: { type: ef("type"), name: ef("name_or_index"), to: ef("to_node") },
  };
}

const EMPTY: Heap = {
  nodeFields: 1,
  nodes: new Uint32Array(0),
  edgeFields: 1,
  edges: new Uint32Array(0),
  strings: [],
  nodeTypes: [],
  edgeTypes: [],
  f: { type: 0, name: 0, id: 0, self: 0, edgeCount: 0 },
  e: { type: 0, name: 0, to: 0 },
};

interface Tree {
  /** shortest-path parent (node ordinal), -1 at the root and for unreachable nodes */
  parent: Int32Array;
  /** the edge's name from the parent */
  via: string[];
  /** self size of the node and all below it in the tree */
  part: Float64Array;
  byId: Map<number, number>;
}

function tree(h: Heap): Tree {
  const count = h.nodes.length / h.nodeFields;
  if (count === 0) return { parent: new Int32Array(0), via: [], part: new Float64Array(0), byId: new Map() };
  const firstEdge = new Uint32Array(count + 1);
  for (let n = 0; n < count; n++) firstEdge[n + 1] = firstEdge[n] + h.nodes[n * h.nodeFields + h.f.edgeCount];
  const parent = new Int32Array(count).fill(-1);
  const via: string[] = new Array<string>(count);
  const order = new Uint32Array(count);
  const seen = new Uint8Array(count);
  const weak = h.edgeTypes.indexOf("weak");
  const shortcut = h.edgeTypes.indexOf("shortcut");
  let head = 0;
  let tail = 0;
  order[tail++] = 0;
  seen[0] = 1;
  while (head < tail) {
    const n = order[head++];
    for (let e = firstEdge[n]; e < firstEdge[n + 1]; e++) {
      const at = e * h.edgeFields;
      const type = h.edges[at + h.e.type];
      if (type === weak || type === shortcut) continue;
      const to = h.edges[at + h.e.to] / h.nodeFields;
      if (seen[to]) continue;
      seen[to] = 1;
      parent[to] = n;
      const typeName = h.edgeTypes[type];
      const name = h.edges[at + h.e.name];
      via[to] = typeName === "element" || typeName === "hidden" ? `[${name}]` : h.strings[name];
      order[tail++] = to;
    }
  }
  const part = new Float64Array(count);
  for (let k = tail - 1; k >= 0; k--) {
    const n = order[k];
    part[n] += h.nodes[n * h.nodeFields + h.f.self];
    if (parent[n] >= 0) part[parent[n]] += part[n];
  }
  const byId = new Map<number, number>();
  for (let n = 0; n < count; n++) byId.set(h.nodes[n * h.nodeFields + h.f.id], n);
  return { parent, via, part, byId };
}

const label = (h: Heap, n: number) => {
  const type = h.nodeTypes[h.nodes[n * h.nodeFields + h.f.type]];
  const name = h.strings[h.nodes[n * h.nodeFields + h.f.name]];
  return type === "string" || type === "concatenated string" || type === "sliced string"
    ? type
    : `${type}:${name.slice(0, 60)}`;
};

function byConstructor(h: Heap): Map<string, { self: number; count: number }> {
  const out = new Map<string, { self: number; count: number }>();
  for (let n = 0; n < h.nodes.length / h.nodeFields; n++) {
    const k = label(h, n);
    const row = out.get(k) ?? { self: 0, count: 0 };
    row.self += h.nodes[n * h.nodeFields + h.f.self];
    row.count += 1;
    out.set(k, row);
  }
  return out;
}

function pathOf(h: Heap, t: Tree, n: number): string {
  const steps: string[] = [];
  for (let m = n; t.parent[m] >= 0 && steps.length < 14; m = t.parent[m]) steps.push(`${t.via[m]} (${label(h, m)})`);
  return steps.reverse().join(" → ");
}

const mib = (b: number) => `${(b / 1048576).toFixed(2)} MiB`;

function main(): void {
  const [a, b] = process.argv.slice(2);
  // one file: what the heap holds (compared with nothing)
  const ha = b === undefined ? EMPTY : load(a);
  const hb = load(b ?? a);
  const ca = byConstructor(ha);
  const cb = byConstructor(hb);
  const total = (h: Heap) => {
    let s = 0;
    for (let n = 0; n < h.nodes.length / h.nodeFields; n++) s += h.nodes[n * h.nodeFields + h.f.self];
    return s;
  };
  console.log(`heap: ${mib(total(ha))} → ${mib(total(hb))}`);
  const rows = [...cb].map(([k, v]) => ({
    k,
    d: v.self - (ca.get(k)?.self ?? 0),
    dc: v.count - (ca.get(k)?.count ?? 0),
  }));
  rows.sort((x, y) => y.d - x.d);
  console.log("\ngrowth by constructor (self size, count):");
  for (const r of rows.slice(0, 30)) console.log(`  ${mib(r.d).padStart(12)}  ${String(r.dc).padStart(9)}  ${r.k}`);
  const ta = tree(ha);
  const tb = tree(hb);
  const grown: { n: number; d: number }[] = [];
  for (let n = 0; n < tb.part.length; n++) {
    const before = ta.byId.get(hb.nodes[n * hb.nodeFields + hb.f.id]);
    const d = tb.part[n] - (before === undefined ? 0 : ta.part[before]);
    if (d > 512 * 1024) grown.push({ n, d });
  }
  grown.sort((x, y) => y.d - x.d);
  // the same holders by where they hang (the last steps of their path), not by object id:
  // a cache replaced by a new object of the same place still compares
  const holders = (h: Heap, t: Tree) => {
    const out = new Map<string, number>();
    for (let n = 0; n < t.part.length; n++) {
      if (t.part[n] < 1048576) continue;
      const steps: string[] = [];
      for (let m = n; t.parent[m] >= 0 && steps.length < 4; m = t.parent[m])
        steps.push(/^\[?\d+\]?( \/|$)/.test(t.via[m]) ? "#" : t.via[m]);
      const k = `${steps.reverse().join(" → ")}  (${label(h, n)})`;
      out.set(k, Math.max(out.get(k) ?? 0, t.part[n]));
    }
    return out;
  };
  const pa = holders(ha, ta);
  const pb = holders(hb, tb);
  const moved = [...new Set([...pa.keys(), ...pb.keys()])].map((k) => ({ k, a: pa.get(k) ?? 0, b: pb.get(k) ?? 0 }));
  moved.sort((x, y) => Math.abs(y.b - y.a) - Math.abs(x.b - x.a));
  console.log("\nholders by place (part before → after, of those over 1 MiB):");
  for (const m of moved.slice(0, Number(process.env.TOP ?? 60)))
    console.log(`  ${mib(m.a).padStart(12)} → ${mib(m.b).padStart(12)}  ${m.k}`);
  console.log("\nobjects whose part grew most (part in the later snapshot, growth, path):");
  for (const { n, d } of grown.slice(0, Number(process.env.TOP ?? 60)))
    console.log(`  +${mib(d)} of ${mib(tb.part[n])}  ${label(hb, n)}\n      ${pathOf(hb, tb, n)}`);
}

main();
