/** Thrown by a bounded fetch's body when the server sends more than the bound. */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`the answer passed ${limit} bytes`);
  }
}

/**
 * A fetch whose response bodies stop at `limit` bytes (the stream errors with BodyTooLargeError), so that a server
 * sending 50 MB is cut off at the bound instead of read whole into memory and into the rep's files.
 */
export function boundedFetch(limit: number): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (!response.body) return response;
    let seen = 0;
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        seen += value.byteLength;
        if (seen > limit) {
          await reader.cancel().catch(() => {});
          return controller.error(new BodyTooLargeError(limit));
        }
        controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
