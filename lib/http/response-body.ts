// A Response over text or bytes the console already holds, which keeps what it was made from
// beside it (issue 46: the 32-client loop). Next reads the Response's stream and writes its
// chunks; the engine's direct reads (lib/engine/direct.ts) write what it was made from as it
// is (`madeFrom`). The stream yields that same body on first read: made as
// `new Response(body)`, the fetch API copies the bytes (and encodes the text) at once,
// whether or not the body is ever read that way.

const MADE_FROM = new WeakMap<Response, string | Uint8Array>();
const utf8 = new TextEncoder();

/** A Response whose body is `body` (text as UTF-8), read on demand. */
export function responseOver(body: string | Uint8Array, init: ResponseInit): Response {
  const response = new Response(
    new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(typeof body === "string" ? utf8.encode(body) : body);
        controller.close();
      },
    }),
    init,
  );
  MADE_FROM.set(response, body);
  return response;
}

/** The text or bytes `response` was made from by `responseOver`, or undefined. */
export function madeFrom(response: Response): string | Uint8Array | undefined {
  return MADE_FROM.get(response);
}
