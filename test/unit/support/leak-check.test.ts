// The leak check (test/support/leak-check.ts) can fail: a vitest run of two fixture files, one leaving process.env,
// a global and an OpenTelemetry provider changed and one restoring them, fails the first naming each and passes the
// second. A child run, since a setup file cannot check itself from inside the run it belongs to.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../..", import.meta.url));
const fixtures = fileURLToPath(new URL("leak-check-fixtures/", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "leak-check-"));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface JsonReport {
  testResults: { name: string; status: string; message: string }[];
}

describe("the leak check", () => {
  it("fails the file that leaves state behind, naming each key, and passes the one that restores it", async () => {
    const outputFile = join(dir, "report.json");
    const run = promisify(execFile)(
      process.execPath,
      [
        join(root, "node_modules/vitest/vitest.mjs"),
        "run",
        "--config",
        join(fixtures, "vitest.config.ts"),
        "--reporter=json",
        `--outputFile=${outputFile}`,
      ],
      { cwd: root, env: { ...process.env, LEAK_CHECK_CHANGED: "before", LEAK_CHECK_REMOVED: "present" } },
    );
    await expect(run).rejects.toMatchObject({ code: 1 });

    const report = JSON.parse(readFileSync(outputFile, "utf8")) as JsonReport;
    const byFile = Object.fromEntries(report.testResults.map((file) => [file.name.slice(fixtures.length), file]));
    expect(byFile["clean.fixture.ts"]).toMatchObject({ status: "passed", message: "" });
    expect(byFile["leaks.fixture.ts"]!.status).toBe("failed");
    // The heading, one line per kind of change, and how to fix it.
    const lines = byFile["leaks.fixture.ts"]!.message.split("\n").map((line) => line.trim());
    expect(lines.slice(1, -1)).toEqual([
      "process.env keys added: LEAK_CHECK_ADDED",
      "process.env keys changed: LEAK_CHECK_CHANGED",
      "process.env keys removed: LEAK_CHECK_REMOVED",
      "globals added: leakCheckAdded",
      "globals changed: fetch",
      "OpenTelemetry global API still registered (call its disable()): trace",
    ]);
    expect(byFile["leaks.fixture.ts"]!.message).toContain("restore it in afterAll");
  });
});
