/**
 * The Postgres read path: getTuple through the sanitizer on the official
 * PostgresSaver and on FastPostgresSaver (both reading with
 * FastJsonPlusSerializer, so only the read path differs), against
 * `JSON.parse` of the same stored bytes, the floor any reader pays. One
 * thread per case, written by the official saver: the latest checkpoint of a
 * thread with no other, and of one with a long history behind it (every
 * earlier step stored its own version of each channel).
 */
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { isDeepStrictEqual } from "node:util";
import type pg from "pg";
import { FastJsonPlusSerializer, SanitizingCheckpointer } from "../src/index.js";
import { FastPostgresSaver } from "../src/postgres/index.js";
import { postgresFactory } from "../test/support/savers/savers.js";
import { seed } from "./histories.js";
import { compare, type Comparison } from "./stats.js";

/** Messages in the latest checkpoint, and checkpoints stored before it. */
export const POSTGRES_READ_CASES = [
  { size: 100, earlier: 0 },
  { size: 1000, earlier: 0 },
  { size: 10_000, earlier: 0 },
  { size: 1000, earlier: 1000 },
];

export interface PostgresReadRow {
  size: number;
  earlier: number;
  /** Bytes of the stored messages blob. */
  bytes: number;
  /** Decoding and JSON.parse of those bytes, ms. */
  parseMs: number;
  /** Sanitized getTuple time over JSON.parse, per interleaved pair (median and interquartile range). */
  official: Comparison;
  fast: Comparison;
  /** Whether both savers returned deep-equal tuples. */
  identical: boolean;
}

export async function postgresReadBenchmarks(pairs: (size: number) => number): Promise<PostgresReadRow[]> {
  const store = await postgresFactory.create();
  const { pool, options } = store as unknown as { pool: pg.Pool; options: { schema: string } };
  const official = new SanitizingCheckpointer(new PostgresSaver(pool, new FastJsonPlusSerializer(), options));
  const fast = new SanitizingCheckpointer(new FastPostgresSaver(pool, undefined, options));
  const decoder = new TextDecoder();
  const rows: PostgresReadRow[] = [];
  try {
    for (const { size, earlier } of POSTGRES_READ_CASES) {
      const thread = `bench-postgres-read-${size}-${earlier}`;
      await seed(store, thread, size, "clean", earlier);
      const {
        rows: [stored],
      } = await pool.query(
        `select blob from "${options.schema}".checkpoint_blobs where thread_id = $1 and channel = 'messages'
         and version = (select checkpoint -> 'channel_versions' ->> 'messages' from "${options.schema}".checkpoints
           where thread_id = $1 order by checkpoint_id desc limit 1)`,
        [thread],
      );
      const bytes = stored.blob as Buffer;
      const parse = async () => JSON.parse(decoder.decode(bytes));
      const config = { configurable: { thread_id: thread } };
      const fastRead = await compare(parse, () => fast.getTuple(config), pairs(size));
      const officialRead = await compare(parse, () => official.getTuple(config), pairs(size));
      const identical = isDeepStrictEqual(await fast.getTuple(config), await official.getTuple(config));
      rows.push({
        size,
        earlier,
        bytes: bytes.length,
        parseMs: fastRead.rawMs,
        official: officialRead,
        fast: fastRead,
        identical,
      });
      process.stderr.write(
        `  postgres read ${size} after ${earlier}: official x${officialRead.ratio.toFixed(1)}, fast x${fastRead.ratio.toFixed(2)} JSON.parse\n`,
      );
    }
  } finally {
    await postgresFactory.destroy(store);
  }
  return rows;
}

const times = (c: Comparison) => `${c.ratio.toFixed(2)}× (${c.spread[0].toFixed(2)}–${c.spread[1].toFixed(2)})`;

/** The Markdown table of `rows`. */
export function postgresReadTable(rows: PostgresReadRow[]): string[] {
  return [
    "Postgres getTuple through the sanitizer, official PostgresSaver against FastPostgresSaver (both with FastJsonPlusSerializer), as multiples of `JSON.parse` of the same stored bytes (median of interleaved pairs, interquartile range in parentheses):",
    "",
    "| messages | earlier checkpoints | stored KB | JSON.parse ms | official ms | FastPostgresSaver ms | official / JSON.parse | FastPostgresSaver / JSON.parse | identical result |",
    "|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ...rows.map(
      (r) =>
        `| ${r.size} | ${r.earlier} | ${(r.bytes / 1024).toFixed(0)} | ${r.parseMs.toFixed(2)} | ${r.official.sanitizedMs.toFixed(2)} | ${r.fast.sanitizedMs.toFixed(2)} | ${times(r.official)} | ${times(r.fast)} | ${r.identical ? "yes" : "NO"} |`,
    ),
  ];
}

/** The target: within 3× of JSON.parse at 1,000 messages, with the sanitizer on, and the same result. */
export function postgresReadTarget(rows: PostgresReadRow[]) {
  const row = rows.find((r) => r.size === 1000 && r.earlier === 0)!;
  return {
    name: "FastPostgresSaver sanitized getTuple ≤ 3× JSON.parse at 1,000 messages, identical result",
    value: `${row.fast.ratio.toFixed(2)}×, ${row.identical ? "identical" : "DIFFERENT"}`,
    pass: row.fast.ratio <= 3 && row.identical,
  };
}
