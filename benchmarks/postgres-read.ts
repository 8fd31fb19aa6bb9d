/**
 * The Postgres read path: getTuple through the sanitizer on the official
 * PostgresSaver and on FastPostgresSaver (both reading with
 * FastJsonPlusSerializer, so only the read path differs), against
 * `JSON.parse` of the same stored bytes, the floor any reader pays. One
 * thread per size, written by the official saver.
 */
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { isDeepStrictEqual } from "node:util";
import type pg from "pg";
import { FastJsonPlusSerializer, SanitizingCheckpointer } from "../src/index.js";
import { FastPostgresSaver } from "../src/postgres/index.js";
import { postgresFactory } from "../test/support/savers.js";
import { seed } from "./histories.js";
import { compare, type Comparison } from "./stats.js";

export const POSTGRES_READ_SIZES = [100, 1000, 10_000];

export interface PostgresReadRow {
  size: number;
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
    for (const size of POSTGRES_READ_SIZES) {
      const thread = `bench-postgres-read-${size}`;
      await seed(store, thread, size, "clean");
      const {
        rows: [stored],
      } = await pool.query(
        `select blob from "${options.schema}".checkpoint_blobs where thread_id = $1 and channel = 'messages'`,
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
        bytes: bytes.length,
        parseMs: fastRead.rawMs,
        official: officialRead,
        fast: fastRead,
        identical,
      });
      process.stderr.write(
        `  postgres read ${size}: official x${officialRead.ratio.toFixed(1)}, fast x${fastRead.ratio.toFixed(2)} JSON.parse\n`,
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
    "| messages | stored KB | JSON.parse ms | official ms | FastPostgresSaver ms | official / JSON.parse | FastPostgresSaver / JSON.parse | identical result |",
    "|---:|---:|---:|---:|---:|---:|---:|---|",
    ...rows.map(
      (r) =>
        `| ${r.size} | ${(r.bytes / 1024).toFixed(0)} | ${r.parseMs.toFixed(2)} | ${r.official.sanitizedMs.toFixed(2)} | ${r.fast.sanitizedMs.toFixed(2)} | ${times(r.official)} | ${times(r.fast)} | ${r.identical ? "yes" : "NO"} |`,
    ),
  ];
}

/** The target: within 3× of JSON.parse at 1,000 messages, with the sanitizer on, and the same result. */
export function postgresReadTarget(rows: PostgresReadRow[]) {
  const row = rows.find((r) => r.size === 1000)!;
  return {
    name: "FastPostgresSaver sanitized getTuple ≤ 3× JSON.parse at 1,000 messages, identical result",
    value: `${row.fast.ratio.toFixed(2)}×, ${row.identical ? "identical" : "DIFFERENT"}`,
    pass: row.fast.ratio <= 3 && row.identical,
  };
}
