// The read-ahead the doctor and prune list threads through: one page requested ahead, failures where the page is
// read, and a listing stopped early closed.
import { setImmediate } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { readAhead } from "../../src/read-ahead.js";

/** Pages 0 to `count` - 1, recording which were requested and whether the listing was closed; `failAt` throws. */
function listing(count: number, failAt?: number) {
  const requested: number[] = [];
  const state = { requested, closed: false };
  const pages = (async function* () {
    try {
      for (let page = 0; page < count; page++) {
        requested.push(page);
        await setImmediate();
        if (page === failAt) throw new Error(`page ${page} failed`);
        yield page;
      }
    } finally {
      state.closed = true;
    }
  })();
  return { pages, state };
}

describe("readAhead", () => {
  it("requests the next page as soon as one is handed out, and gives every page in order", async () => {
    const { pages, state } = listing(4);
    const read: number[] = [];
    for await (const page of readAhead(pages)) {
      read.push(page);
      expect(state.requested).toEqual([...read, ...(page < 3 ? [page + 1] : [])]);
    }
    expect(read).toEqual([0, 1, 2, 3]);
  });

  it("reports a page's failure where that page is read, not as an unhandled rejection meanwhile", async () => {
    const { pages } = listing(4, 1);
    const ahead = readAhead(pages);
    expect(await ahead.next()).toEqual({ value: 0, done: false });
    // Page 1 fails while page 0 is being read, over several turns of the event loop.
    for (let turn = 0; turn < 5; turn++) await setImmediate();
    await expect(ahead.next()).rejects.toThrow("page 1 failed");
  });

  it("closes the listing when the reader stops early, the page requested ahead dropped", async () => {
    const { pages, state } = listing(10);
    for await (const page of readAhead(pages)) if (page === 1) break;
    expect(state.requested).toEqual([0, 1, 2]);
    expect(state.closed).toBe(true);
  });
});
