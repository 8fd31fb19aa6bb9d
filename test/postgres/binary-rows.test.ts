/**
 * The read statement's results are parsed by its own type parsers: the app's
 * global `pg.types` settings do not change what FastPostgresSaver reads, and a
 * node-postgres that sends the statement unprepared (text results) reads the
 * same values as the binary results it asks for.
 */
import { emptyCheckpoint, uuid6 } from "@langchain/langgraph-checkpoint";
import pg from "pg";
import { describe, expect, it } from "vitest";
import type { FastPostgresSaver } from "../../src/postgres/index.js";
import { binaryQuery } from "../../src/postgres/binary-rows.js";
import { fastPostgresFactory, saverPerTest } from "../support/savers.js";
import { serviceAvailable } from "../support/services.js";

const TEXT = 25;
const BYTEA = 17;
const JSONB = 3802;

describe.runIf(await serviceAvailable("postgres"))("FastPostgresSaver's result parsing", () => {
  const open = saverPerTest(fastPostgresFactory);

  it("ignores the app's global pg.types parsers", async () => {
    const saver = (await open()) as FastPostgresSaver;
    const checkpoint = { ...emptyCheckpoint(), id: uuid6(-1) };
    checkpoint.channel_values = { text: "né 🙂", bytes: new Uint8Array([0, 128, 255]) };
    checkpoint.channel_versions = { text: 1, bytes: 1 };
    const config = { configurable: { thread_id: "t", checkpoint_ns: "" } };
    await saver.put(config, checkpoint, { source: "input", step: -1, parents: {} }, checkpoint.channel_versions);
    const expected = await saver.getTuple(config);
    const { text, bytes } = expected!.checkpoint.channel_values as { text: string; bytes: Uint8Array };
    expect([text, [...bytes]]).toEqual(["né 🙂", [0, 128, 255]]);

    const garbage = () => "garbage";
    const overridden = [
      [TEXT, "binary"],
      [BYTEA, "binary"],
      [TEXT, "text"],
      [BYTEA, "text"],
      [JSONB, "text"],
    ] as const;
    const previous = overridden.map(([oid, format]) => pg.types.getTypeParser(oid, format));
    overridden.forEach(([oid, format]) => pg.types.setTypeParser(oid, format, garbage));
    try {
      expect(await saver.getTuple(config)).toEqual(expected);
    } finally {
      overridden.forEach(([oid, format], i) => pg.types.setTypeParser(oid, format, previous[i]!));
    }
  });

  it("reads the same values from text results as from binary ones", async () => {
    const { pool } = (await open()) as unknown as { pool: pg.Pool };
    const sql = `select 'né 🙂'::text as text, convert_to('{"é": 1}', 'UTF8') as json`;
    const binary = await pool.query(binaryQuery(sql, []));
    // Without queryMode, a statement without parameters is sent unprepared: results come back as text.
    const { queryMode: _, ...unprepared } = binaryQuery(sql, []);
    const text = await pool.query(unprepared);
    expect([binary.fields[1]!.format, text.fields[1]!.format]).toEqual(["binary", "text"]);
    expect(text.rows).toEqual(binary.rows);
    expect(binary.rows).toEqual([{ text: "né 🙂", json: Buffer.from('{"é": 1}') }]);
  });

  it("needs base64 for bytes that are not UTF-8: node-postgres decodes binary values as UTF-8", async () => {
    const { pool } = (await open()) as unknown as { pool: pg.Pool };
    const { rows } = await pool.query(binaryQuery(`select '\\x00ff'::bytea as bytes`, []));
    expect([...rows[0].bytes]).not.toEqual([0, 255]);
  });
});
