// The hand-written Range codec against protobufjs encoding the same etcd protos.
import path from "node:path";
import protobuf from "protobufjs";
import { describe, expect, it } from "vitest";
import { decodeRangeResponse, encodeRangeRequest } from "./range-codec";

const protoDir = path.resolve(__dirname, "../../node_modules/etcd3/proto");
const root = new protobuf.Root();
root.resolvePath = (_origin, target) => path.join(protoDir, path.basename(target));
root.loadSync(["rpc.proto"], { keepCase: true });
const RangeRequest = root.lookupType("etcdserverpb.RangeRequest");
const RangeResponse = root.lookupType("etcdserverpb.RangeResponse");

describe("range codec", () => {
  it("encodes a RangeRequest protobufjs reads back", () => {
    const buf = encodeRangeRequest({
      key: Buffer.from("/p/a"),
      rangeEnd: Buffer.from("/p/b"),
      limit: 1024,
      revision: 2 ** 40 + 7,
      keysOnly: true,
    });
    const req = RangeRequest.toObject(RangeRequest.decode(buf), { longs: String }) as Record<string, unknown>;
    expect(Buffer.from(req.key as Uint8Array).toString()).toBe("/p/a");
    expect(Buffer.from(req.range_end as Uint8Array).toString()).toBe("/p/b");
    expect(req.limit).toBe("1024");
    expect(req.revision).toBe(String(2 ** 40 + 7));
    expect(req.keys_only).toBe(true);
  });

  it("decodes header revision, kvs (with a 63-bit lease id), more and count", () => {
    const lease = "7587868291857112345";
    const message = RangeResponse.fromObject({
      header: { cluster_id: "123", member_id: "456", revision: "987654", raft_term: "3" },
      kvs: [
        {
          key: Buffer.from("/p/ä"),
          create_revision: "5",
          mod_revision: "900000",
          version: "2",
          value: Buffer.from('{"x":1}'),
          lease,
        },
        {
          key: Buffer.from("/p/z"),
          create_revision: "6",
          mod_revision: "7",
          version: "1",
          value: Buffer.alloc(0),
          lease: "0",
        },
      ],
      more: true,
      count: "26810",
    });
    const decoded = decodeRangeResponse(Buffer.from(RangeResponse.encode(message).finish()));
    expect(decoded.revision).toBe(987_654);
    expect(decoded.more).toBe(true);
    expect(decoded.count).toBe(26_810);
    expect(decoded.kvs.map((kv) => [kv.key, kv.value.toString(), kv.modRevision, kv.lease])).toEqual([
      ["/p/ä", '{"x":1}', 900_000, lease],
      ["/p/z", "", 7, "0"],
    ]);
    expect(decoded.bytes).toBe(Buffer.byteLength("/p/ä") + 7 + 4);
    expect(decoded.lastKey?.toString()).toBe("/p/z");
  });
});
