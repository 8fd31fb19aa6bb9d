// The published entry points: the exports map resolves for ESM and CommonJS consumers, with types.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../..", import.meta.url));
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
    expect(out).toBe("MemorySaver ABB2B3CDEFGHIJKLMNPQRSTUVWXYZAAAB");
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

  it("exposes isSyntheticMessage from the ./client subpath, for a chat page, loading no other package", () => {
    const out = run([
      "-e",
      `const { isSyntheticMessage } = require("langgraph-checkpoint-sanitizer/client");
       const loaded = Object.keys(require.cache).filter((f) => f.includes("/node_modules/"));
       console.log(isSyntheticMessage({ id: "do-not-render-sanitizer-reply-h1" }), isSyntheticMessage({ id: "h1" }), loaded.length);`,
    ]);
    expect(out).toBe("true false 0");
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

  describe("without @opentelemetry/api installed (an optional peer)", () => {
    // A thread whose first turn stopped with a tool call unanswered, read with the call's tail repaired.
    const read = `new SanitizingCheckpointer(saver, { policy: "repair" }).getTuple(config)
       .then((t) => console.log(t.checkpoint.channel_values.messages.length, loaded()))`;
    const thread = `const saver = new MemorySaver(); const config = { configurable: { thread_id: "t" } };
       const ai = new AIMessage({ content: "", tool_calls: [{ id: "call_1", name: "search", args: {} }] });
       const stored = saver.put(config, { v: 4, id: "1", ts: "", channel_values: { messages: [new HumanMessage("hi"), ai] },
         channel_versions: { messages: 1 }, versions_seen: {} }, { source: "loop", step: 0, parents: {} }, {});`;
    const loaded = `const loaded = () => Object.keys(require.cache).some((f) => f.includes("@opentelemetry"));`;

    it("is not loaded by the main entry, only by the first read", () => {
      const out = run([
        "-e",
        `const { SanitizingCheckpointer } = require("langgraph-checkpoint-sanitizer");
         const { MemorySaver } = require("@langchain/langgraph-checkpoint");
         const { AIMessage, HumanMessage } = require("@langchain/core/messages");
         ${loaded} console.log(loaded()); ${thread} stored.then(() => ${read});`,
      ]);
      expect(out).toBe("false\n4 true");
    });

    it("reads and repairs as before when the package cannot be found, in both formats", () => {
      // Node's resolution made to fail for @opentelemetry/api, as in an app that does not install it.
      const hideCjs = `const Module = require("node:module"); const resolve = Module._resolveFilename;
        Module._resolveFilename = function (request, ...rest) {
          if (request.startsWith("@opentelemetry/")) throw Object.assign(new Error("Cannot find module"), { code: "MODULE_NOT_FOUND" });
          return resolve.call(this, request, ...rest);
        };`;
      const cjs = run([
        "-e",
        `${hideCjs} const { SanitizingCheckpointer } = require("langgraph-checkpoint-sanitizer");
         const { MemorySaver } = require("@langchain/langgraph-checkpoint");
         const { AIMessage, HumanMessage } = require("@langchain/core/messages");
         ${loaded} ${thread} stored.then(() => ${read});`,
      ]);
      const hook = `export async function resolve(specifier, context, next) {
        if (specifier.startsWith("@opentelemetry/")) throw Object.assign(new Error("not found"), { code: "ERR_MODULE_NOT_FOUND" });
        return next(specifier, context);
      }`;
      const esm = run([
        "--input-type=module",
        "-e",
        `import { register, createRequire } from "node:module";
         register("data:text/javascript," + encodeURIComponent(${JSON.stringify(hook)}));
         const require = createRequire(import.meta.url);
         const { SanitizingCheckpointer } = await import("langgraph-checkpoint-sanitizer");
         const { MemorySaver } = await import("@langchain/langgraph-checkpoint");
         const { AIMessage, HumanMessage } = await import("@langchain/core/messages");
         const hidden = await import("@opentelemetry/api").then(() => false, () => true);
         const loaded = () => !hidden; ${thread} await stored; await ${read};`,
      ]);
      expect([cjs, esm]).toEqual(["4 false", "4 false"]);
    });
  });

  it("writes a types stub for each subpath, for TypeScript's node10 resolution", () => {
    for (const subpath of ["redis", "middleware", "postgres"]) {
      expect(readFileSync(`${root}/${subpath}.d.ts`, "utf8")).toBe(`export * from "./dist/cjs/${subpath}/index.js";\n`);
    }
  });
});
