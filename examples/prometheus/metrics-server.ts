/**
 * The app's side of Prometheus: the OpenTelemetry SDK with its Prometheus exporter as the global MeterProvider,
 * and `/metrics` served from the app's own HTTP server. The sanitizer needs no option: it records to the global
 * provider.
 */
import { metrics } from "@opentelemetry/api";
import { PrometheusExporter } from "@opentelemetry/exporter-prometheus";
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** Serves `/metrics` on 127.0.0.1:`port` (0: a free port); returns its base URL and a way to stop it. */
export async function startMetricsServer(port: number) {
  // The exporter's own server would listen on every interface; the app's listens where it is told.
  const exporter = new PrometheusExporter({ preventServerStart: true });
  const provider = new MeterProvider({ readers: [exporter] });
  metrics.setGlobalMeterProvider(provider);
  const server = createServer((request, response) => {
    if (request.url === "/metrics") exporter.getMetricsRequestHandler(request, response);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async stop() {
      await new Promise((resolve) => server.close(resolve));
      await provider.shutdown();
      metrics.disable();
    },
  };
}
