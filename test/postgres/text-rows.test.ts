/**
 * What FastPostgresSaver's text results depend on: the read statement brings
 * its own type parsers, so the app's global `pg.types` settings do not change
 * what it reads; and JSON values travel as text only where the database is
 * UTF-8, so a database in another encoding reads what the official saver reads.
 */
import { HumanMessage } from "@langchain/core/messages";
import { emptyCheckpoint, uuid6, type BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { FastPostgresSaver } from "../../src/postgres/index.js";
import { fastPostgresFactory, saverPerTest, unique } from "../support/savers/savers.js";
import { POSTGRES_URL, serviceAvailable } from "../support/servers/services.js";

const TEXT = 25;
const BYTEA = 17;
const JSONB = 3802;

/** Stores one checkpoint with non-ASCII text, a message and bytes that are not UTF-8. */
async function putValues(saver: BaseCheckpointSaver) {
  const checkpoint = { ...emptyCheckpoint(), id: uuid6(-1) };
  checkpoint.channel_values = {
    text: "né ÿ 🙂",
    messages: [new HumanMessage({ id: "h1", content: "café 🙂" })],
    bytes: new Uint8Array([0, 128, 255]),
  };
  checkpoint.channel_versions = { text: 1, messages: 1, bytes: 1 };
  const config = { configurable: { thread_id: "t", checkpoint_ns: "" } };
  await saver.put(config, checkpoint, { source: "input", step: -1, parents: {} }, checkpoint.channel_versions);
  return config;
}

describe.runIf(await serviceAvailable("postgres"))("FastPostgresSaver's result parsing", () => {
  const open = saverPerTest(fastPostgresFactory);

  it("ignores the app's global pg.types parsers", async () => {
    const saver = (await open()) as FastPostgresSaver;
    const config = await putValues(saver);
    const expected = await saver.getTuple(config);
    const { text, bytes } = expected!.checkpoint.channel_values as { text: string; bytes: Uint8Array };
    expect([text, [...bytes]]).toEqual(["né ÿ 🙂", [0, 128, 255]]);

    const garbage = () => "garbage";
    const overridden = [
      [TEXT, "text"],
      [BYTEA, "text"],
      [JSONB, "text"],
      [TEXT, "binary"],
    ] as const;
    const previous = overridden.map(([oid, format]) => pg.types.getTypeParser(oid, format));
    overridden.forEach(([oid, format]) => pg.types.setTypeParser(oid, format, garbage));
    try {
      expect(await saver.getTuple(config)).toEqual(expected);
    } finally {
      overridden.forEach(([oid, format], i) => pg.types.setTypeParser(oid, format, previous[i]!));
    }
  });

  it("reads a LATIN1 database as the official saver does, characters it cannot hold included", async () => {
    const database = `sanitizer_latin1_${unique()}`;
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    await admin.query(`create database ${database} encoding 'LATIN1' lc_collate 'C' lc_ctype 'C' template template0`);
    const url = new URL(POSTGRES_URL);
    url.pathname = `/${database}`;
    const pool = new pg.Pool({ connectionString: url.toString() });
    try {
      const official = new PostgresSaver(pool);
      await official.setup();
      const config = await putValues(official);
      const expected = await official.getTuple(config);
      expect((expected!.checkpoint.channel_values as { text: string }).text).toBe("né ÿ 🙂");
      const fast = new FastPostgresSaver(pool, official.serde);
      expect(await fast.getTuple(config)).toEqual(expected);
      const [listed] = await fast
        .list(config)
        .next()
        .then((r) => [r.value]);
      expect(listed).toEqual(expected);
    } finally {
      await pool.end();
      await admin.query(`drop database ${database}`);
      await admin.end();
    }
  });
});
