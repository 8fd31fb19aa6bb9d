// What each entry point publishes: its names pinned, in both formats and in its types; declarations a consumer
// compiles with full checking; nothing marked @internal among them.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../..", import.meta.url));

/** The names each entry exports: values (in both formats), then types only. */
const ENTRIES = {
  "langgraph-checkpoint-sanitizer": {
    values: [
      "FastJsonPlusSerializer",
      "InvalidOptionError",
      "MARKER_PRESETS",
      "PATTERNS",
      "PruneNotSupportedError",
      "SYNTHETIC_ID_PREFIX",
      "SanitizingCheckpointer",
      "hasPendingInterrupt",
      "hasPendingTasks",
      "isSyntheticMessage",
      "prune",
      "repairMessages",
      "sanitizeGraph",
    ],
    types: [
      "BridgeRole",
      "MarkerOption",
      "MarkerTexts",
      "Pattern",
      "PatternId",
      "ProviderChoice",
      "ProviderName",
      "ProviderRules",
      "PruneOptions",
      "PruneProgress",
      "PruneReport",
      "PruneTotals",
      "PrunedThread",
      "Repair",
      "RepairAction",
      "RepairEvent",
      "RepairKind",
      "RepairOptions",
      "RepairResult",
      "RepairRules",
      "RepairSettings",
      "SanitizerPolicy",
      "SanitizingCheckpointerOptions",
      "Scope",
      "TailKind",
      "TailMode",
      "TailPolicy",
      "TelemetryOption",
    ],
  },
  "langgraph-checkpoint-sanitizer/redis": {
    values: ["IORedisSaver", "RedisUnavailableError", "resilientClusterOptions", "resilientRedisOptions"],
    types: ["IORedisConnection", "IORedisSaverOptions", "ResilienceOptions"],
  },
  "langgraph-checkpoint-sanitizer/middleware": {
    values: ["sanitizeMessagesMiddleware"],
    types: ["ModelRequestRepairEvent", "SanitizeMessagesMiddlewareOptions"],
  },
  "langgraph-checkpoint-sanitizer/postgres": {
    values: ["FastPostgresSaver", "PostgresUnavailableError"],
    types: ["FastPostgresSaverOptions"],
  },
  "langgraph-checkpoint-sanitizer/client": {
    values: ["SYNTHETIC_ID_PREFIX", "isSyntheticMessage"],
    types: [],
  },
} as const;

const run = (args: string[]) => execFileSync(process.execPath, args, { cwd: root, encoding: "utf8" }).trim();

/** A program of one consumer module that imports every entry, resolved as Node resolves the package. */
function consumer(): { program: ts.Program; file: string } {
  const file = join(root, "consumer-of-the-package.mts");
  const source = Object.keys(ENTRIES)
    .map((entry, i) => `import * as entry${i} from "${entry}";\nexport { entry${i} };`)
    .join("\n");
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    types: ["node"],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version) =>
    name === file ? ts.createSourceFile(name, source, version) : getSourceFile(name, version);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === file || fileExists(name);
  return { program: ts.createProgram([file], options, host), file };
}

// dist/ is built by `npm test` (its pretest) and by `npm ci` (prepare), never by a test.
describe("the public surface", () => {
  it("exports exactly the pinned values from each entry, in ESM and CommonJS", () => {
    const entries = JSON.stringify(Object.keys(ENTRIES));
    const names = (load: string) =>
      `Promise.all(${entries}.map(async (e) => Object.keys(await ${load}).filter((k) => k !== "default" && k !== "__esModule").sort()))` +
      `.then((all) => console.log(JSON.stringify(all)))`;
    const esm = JSON.parse(run(["--input-type=module", "-e", names("import(e)")]));
    const cjs = JSON.parse(run(["-e", names("require(e)")]));
    const pinned = Object.values(ENTRIES).map(({ values }) => [...values].sort());
    expect({ esm, cjs }).toEqual({ esm: pinned, cjs: pinned });
  });

  it("declares exactly the pinned names for each entry, and a consumer compiles them with every check on", () => {
    const { program, file } = consumer();
    const checker = program.getTypeChecker();
    // Every check on the package's own declarations and the consumer (not on its dependencies': that is theirs).
    const ours = program
      .getSourceFiles()
      .filter((sf) => sf.fileName === file || sf.fileName.startsWith(join(root, "dist")));
    const diagnostics = ours
      .flatMap((sf) => [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)])
      .map((d) => `${d.file?.fileName}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
    expect(diagnostics).toEqual([]);
    const exported = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(file)!)!);
    Object.values(ENTRIES).forEach(({ values, types }, i) => {
      const entry = exported.find((s) => s.name === `entry${i}`)!;
      const module = checker.getAliasedSymbol(entry);
      const names = checker.getExportsOfModule(module).map((s) => s.name);
      expect(names.sort()).toEqual([...values, ...types].sort());
    });
  });

  it("publishes no declaration marked @internal", () => {
    const marked: string[] = [];
    const visit = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) visit(path);
        else if (entry.name.endsWith(".d.ts") && readFileSync(path, "utf8").includes("@internal")) marked.push(path);
      }
    };
    visit(join(root, "dist"));
    expect(marked).toEqual([]);
  });
});
