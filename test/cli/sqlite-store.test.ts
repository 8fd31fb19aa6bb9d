// The SQLite doctor store reads a checkpoint's JSON columns as text: the same tuple as SqliteSaver's getTuple, which
// decodes their bytes, whatever the bytes (a BOM, invalid UTF-8, a value cut short, or stored as text by hand), in a
// UTF-8 file and in one whose text is UTF-16, where every value stays a blob.
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import fc from "fast-check";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { openSqlite } from "../../src/cli/stores/sqlite.js";
import { storedData, storedText } from "../support/generators/raw-json.js";
import { outcome, printOutcome, sameOutcome } from "../support/generators/serde-values.js";

const numRuns = Number(process.env.FC_RUNS ?? 300);

describe("the SQLite doctor store's batch read", () => {
  const dir = mkdtempSync(join(tmpdir(), "doctor-sqlite-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(["UTF-8", "UTF-16le"])(
    "gives the tuple getTuple gives, or its error, for any bytes (%s)",
    async (encoding) => {
      const file = join(dir, `threads-${encoding}.sqlite`);
      const writer = SqliteSaver.fromConnString(file);
      // Before the saver creates its tables (on its first read), while the encoding can still be set.
      writer.db.pragma(`encoding = '${encoding}'`);
      await writer.getTuple({ configurable: { thread_id: "none" } });
      expect(writer.db.pragma("encoding", { simple: true })).toBe(encoding);
      const store = await openSqlite(file, { writable: false });
      const write = writer.db.prepare(
        `INSERT OR REPLACE INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata)
       VALUES ('thread', '', 'checkpoint', NULL, ?, ?, ?)`,
      );
      const ref = { threadId: "thread", checkpointNs: "" };
      const getTuple = () =>
        outcome(store.saver.getTuple({ configurable: { thread_id: "thread", checkpoint_ns: "" } }));
      try {
        await fc.assert(
          fc.asyncProperty(
            storedText,
            storedText,
            fc.constantFrom("json", null),
            async (checkpoint, metadata, type) => {
              write.run(type, storedData(checkpoint), storedData(metadata));
              const expected = await getTuple();
              const actual = await outcome(store.latest!([ref]).then(([tuple]) => tuple));
              // A `__proto__` key gives each read an object of its own prototype: those compare by their printed form.
              const reproducible = isDeepStrictEqual(expected, await getTuple());
              if (!sameOutcome(actual, expected, reproducible))
                expect.fail(`batch read ${printOutcome(actual)}\ngetTuple ${printOutcome(expected)}`);
            },
          ),
          { numRuns },
        );
      } finally {
        await store.close();
        writer.db.close();
      }
    },
  );
});
