/**
 * No wire test reaches the internet: while an emulator runs, `fetch` serves only loopback addresses.
 * The one request a client makes on its own is stubbed: `@langchain/core` fetches a tiktoken
 * encoding from tiktoken.pages.dev the first time ChatOpenAI estimates the tokens of a streamed
 * reply. The stub is a byte-level encoding (one token per byte), enough for a token count.
 */
const TIKTOKEN_HOST = "tiktoken.pages.dev";

const byteLevelEncoding = () => ({
  pat_str: "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+",
  special_tokens: {},
  bpe_ranks: `! 0 ${Array.from({ length: 256 }, (_, b) => Buffer.from([b]).toString("base64")).join(" ")}`,
});

/** Installs the guard; returns the function that removes it. */
export function guardNetwork(): () => void {
  const original = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    // A Request may come from another implementation than the global one (@hono/node-server replaces it in a
    // process that serves an Agent Server): read its url, not its string.
    const url = new URL(typeof input === "object" && "url" in input ? input.url : String(input));
    if (url.hostname === TIKTOKEN_HOST) return Response.json(byteLevelEncoding());
    if (url.hostname !== "127.0.0.1" && url.hostname !== "localhost") {
      throw new Error(`a wire test tried to reach ${url.origin}: point the client at the emulator`);
    }
    return original(input, init);
  };
  return () => {
    globalThis.fetch = original;
  };
}
