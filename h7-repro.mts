import "./lib/sim/node-entry.ts";
import { startEtcd } from "./test/support/etcd.ts";
import { EtcdHttp } from "./test/support/etcd-http.ts";
import { demandEventPuts } from "./test/support/fleet-records.ts";
const { createEtcdClient } = await import("./lib/etcd/client.ts");
const { readPrefixPaged } = await import("./lib/etcd/paged-read.ts");
const c = await startEtcd({ size: 3 });
try {
  const h = new EtcdHttp(c.members[0].clientUrl);
  await h.putMany(demandEventPuts("/P", Array.from({ length: 3000 }, (_, i) => `t${i}`), 2, 40, 5));
  const client = createEtcdClient({ endpoints: c.endpoints.split(",") });
  let ok = 0, fail = 0;
  const one = async () => { try { await readPrefixPaged(client, "/P/", { maxLimit: 256 }); ok++; } catch (e) { if (fail++ < 1) { const cause = (e as any).cause; console.log((e as Error).message, "\nCAUSE:", cause?.constructor?.name, cause?.stack?.split("\n").slice(0, 16).join("\n")); } } };
  const loops = Array.from({ length: 10 }, async () => { for (let i = 0; i < 8; i++) await one(); });
  await new Promise(r => setTimeout(r, 300));
  await c.members[1].kill();
  await Promise.all(loops);
  console.log("ok", ok, "fail", fail);
  client.close();
} finally { await c.stop(); }
