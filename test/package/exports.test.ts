// The published entry points: the exports map resolves for ESM and CommonJS consumers, with types.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const run = (args: string[]) => execFileSync(process.execPath, args, { cwd: root, encoding: "utf8" }).trim();

// dist/ is built by `npm test` (its pretest) and by `npm ci` (prepare), never by a test.
describe("package entry points", () => {
  it("ships type declarations for both formats", () => {
    for (const entry of ["", "redis/", "middleware/", "postgres/"]) {
      for (const format of ["esm", "cjs"]) expect(existsSync(`${root}/dist/${format}/${entry}index.d.ts`)).toBe(true);
    }
  });

  it("loads with require() and wraps the app's CommonJS MemorySaver", () => {
    const out = run([
      "-e",
      `const { SanitizingCheckpointer, repairMessages, FastJsonPlusSerializer } = require("langgraph-checkpoint-sanitizer");
       const { MemorySaver } = require("@langchain/langgraph-checkpoint");
       const { HumanMessage } = require("@langchain/core/messages");
       const s = new SanitizingCheckpointer(new MemorySaver());
       const serde = new FastJsonPlusSerializer();
       serde.dumpsTyped([new HumanMessage("hi")])
         .then(([type, bytes]) => serde.loadsTyped(type, bytes))
         .then(([m]) => console.log(typeof s.getTuple, repairMessages(["x"]).messages[0], m instanceof HumanMessage, m.content));`,
    ]);
    expect(out).toBe("function x true hi");
  });

  it("loads with import", () => {
    const out = run([
      "--input-type=module",
      "-e",
      `import { SanitizingCheckpointer, PATTERNS } from "langgraph-checkpoint-sanitizer";
       import { MemorySaver } from "@langchain/langgraph-checkpoint";
       console.log(new SanitizingCheckpointer(new MemorySaver()).inner.constructor.name, Object.keys(PATTERNS).join(""));`,
    ]);
    expect(out).toBe("MemorySaver ABB2B3CDEFGHIJKLMNPQRSTUVWXYZ");
  });

  it("exposes IORedisSaver from the ./redis subpath in both formats, and keeps ioredis out of the main entry", () => {
    const cjs = run(["-e", `console.log(typeof require("langgraph-checkpoint-sanitizer/redis").IORedisSaver)`]);
    const esm = run([
      "--input-type=module",
      "-e",
      `import { IORedisSaver } from "langgraph-checkpoint-sanitizer/redis"; console.log(typeof IORedisSaver)`,
    ]);
    expect([cjs, esm]).toEqual(["function", "function"]);
    const main = run([
      "-e",
      `require("langgraph-checkpoint-sanitizer"); console.log(Object.keys(require.cache).some((f) => f.includes("/ioredis/")))`,
    ]);
    expect(main).toBe("false");
  });

  it("exports sanitizeGraph without loading langchain (graphs and agents are recognized by shape)", () => {
    const out = run([
      "-e",
      `const { sanitizeGraph } = require("langgraph-checkpoint-sanitizer");
       const loaded = Object.keys(require.cache).filter((f) => f.includes("/node_modules/langchain/"));
       console.log(typeof sanitizeGraph, loaded.length);`,
    ]);
    expect(out).toBe("function 0");
  });

  it("exposes the model-call middleware from the ./middleware subpath in both formats", () => {
    const middleware = `m.sanitizeMessagesMiddleware({ markers: "ko" }).name`;
    const cjs = run([
      "-e",
      `const m = require("langgraph-checkpoint-sanitizer/middleware"); console.log(${middleware})`,
    ]);
    const esm = run([
      "--input-type=module",
      "-e",
      `import * as m from "langgraph-checkpoint-sanitizer/middleware"; console.log(${middleware})`,
    ]);
    expect([cjs, esm]).toEqual(["SanitizeMessagesMiddleware", "SanitizeMessagesMiddleware"]);
  });

  it("exposes FastPostgresSaver from the ./postgres subpath in both formats, and keeps pg out of the main entry", () => {
    const construct = `new FastPostgresSaver(new (require("pg").Pool)(), undefined, { schema: "s" }).serde.constructor.name`;
    const cjs = run([
      "-e",
      `const { FastPostgresSaver } = require("langgraph-checkpoint-sanitizer/postgres"); console.log(${construct})`,
    ]);
    const esm = run([
      "--input-type=module",
      "-e",
      `import { createRequire } from "node:module"; const require = createRequire(import.meta.url);
       import { FastPostgresSaver } from "langgraph-checkpoint-sanitizer/postgres"; console.log(${construct})`,
    ]);
    expect([cjs, esm]).toEqual(["FastJsonPlusSerializer", "FastJsonPlusSerializer"]);
    const loaded = `Object.keys(require.cache).some((f) => /[\\/](pg|@langchain[\\/]langgraph-checkpoint-postgres)[\\/]/.test(f))`;
    expect(run(["-e", `require("langgraph-checkpoint-sanitizer"); console.log(${loaded})`])).toBe("false");
    expect(run(["-e", `require("langgraph-checkpoint-sanitizer/postgres"); console.log(${loaded})`])).toBe("true");
  });

  it("loads the main entry without @langchain/langgraph, which it reaches only for a delta channel's history", () => {
    const loaded = `Object.keys(require.cache).some((f) => /[\\/]@langchain[\\/]langgraph[\\/]/.test(f))`;
    expect(run(["-e", `require("langgraph-checkpoint-sanitizer"); console.log(${loaded})`])).toBe("false");
  });

  it("writes a types stub for each subpath, for TypeScript's node10 resolution", () => {
    for (const subpath of ["redis", "middleware", "postgres"]) {
      expect(readFileSync(`${root}/${subpath}.d.ts`, "utf8")).toBe(`export * from "./dist/cjs/${subpath}/index.js";\n`);
    }
  });
});
