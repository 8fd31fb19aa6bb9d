// After the two tsc passes: mark dist/cjs as CommonJS (the package is "type": "module"),
// and make the CLI executable (tsc does not; npm only does it when installing a dependency).
import { chmodSync, writeFileSync } from "node:fs";

writeFileSync("dist/cjs/package.json", '{"type":"commonjs"}\n');
chmodSync("dist/esm/cli/main.js", 0o755);
