// The one export of playwright-core's bundle that test/support/inspector.ts uses: the `ws`
// WebSocket client (playwright-core exports the path, without types).
declare module "playwright-core/lib/utilsBundle" {
  import type { EventEmitter } from "node:events";

  export class ws extends EventEmitter {
    constructor(url: string);
    send(data: string): void;
    close(): void;
  }
}
