// FastPostgresSaver's options fail as the README says: an InvalidOptionError (a TypeError) naming the option.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { InvalidOptionError } from "../../src/index.js";
import { FastPostgresSaver } from "../../src/postgres/index.js";
import { POSTGRES_URL } from "../support/servers/services.js";
import { thrownBy } from "../support/thrown.js";

describe("FastPostgresSaver options", () => {
  it("rejects a schema name it cannot quote, before connecting", () => {
    const pool = new pg.Pool({ max: 1 });
    const build = () => new FastPostgresSaver(pool, undefined, { schema: 'my"schema' });
    expect(build).toThrow(InvalidOptionError);
    expect(build).toThrow(TypeError);
    expect(build).toThrow('schema must be a schema name without double quotes, got "my\\"schema".');
    expect(thrownBy(build)).toMatchObject({ option: "schema", value: 'my"schema' });
    return pool.end();
  });

  it("rejects it from fromConnString too, with the same error", () => {
    const error = thrownBy(() => FastPostgresSaver.fromConnString(POSTGRES_URL, { schema: 'my"schema' }));
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect(error).toMatchObject({ option: "schema" });
  });
});
