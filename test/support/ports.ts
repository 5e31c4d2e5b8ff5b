import net from "node:net";

/** A free TCP port on 127.0.0.1 (the OS picks it; we release it right away). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      if (address && typeof address === "object") {
        const { port } = address;
        server.close(() => resolve(port));
      } else reject(new Error("no port"));
    });
  });
}
