// FastPostgresSaver's options fail as the README says: an InvalidOptionError (a TypeError) naming the fix.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { InvalidOptionError } from "../../src/index.js";
import { FastPostgresSaver } from "../../src/postgres/index.js";

describe("FastPostgresSaver options", () => {
  it("rejects a schema name it cannot quote, before connecting", () => {
    const pool = new pg.Pool({ max: 1 });
    const build = () => new FastPostgresSaver(pool, undefined, { schema: 'my"schema' });
    expect(build).toThrow(InvalidOptionError);
    expect(build).toThrow(TypeError);
    expect(build).toThrow('invalid schema "my\\"schema"; pass a schema name without double quotes');
    return pool.end();
  });
});
