/**
 * npm run metrics:example: the sanitizer's metrics for Prometheus. Runs a cancelled turn and the next messages
 * through `sanitizeGraph`, then serves `/metrics` until stopped (PORT, default 9464, Prometheus' usual port for
 * OpenTelemetry).
 */
import { startMetricsServer } from "./metrics-server.js";
import { cancelledThenRepaired } from "./scenario.js";

const server = await startMetricsServer(Number(process.env.PORT ?? 9464));
await cancelledThenRepaired();
console.log(`A cancelled turn, then two messages. Scrape ${server.url}/metrics (Ctrl-C stops).`);
