/**
 * The emulator's core: one `node:http` server on 127.0.0.1 (port 0) that routes each request to the
 * provider module serving its path, rejects a history that breaks that provider's rules, and
 * otherwise answers from the test's script, as one JSON body or as a stream of frames. The same
 * routes are served over HTTPS on a second free port, for a client that builds `https://` URLs
 * from a host (ChatVertexAI): its certificate is made for 127.0.0.1 when the first emulator starts.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createSecureServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { promisify } from "node:util";
import { guardNetwork } from "./network-guard.js";
import type { CutPoint, LastTurn, Rejection, Script, ScriptedReply } from "./script.js";

/** A streamed reply: the frames to write, and where a `hang` cuts them. */
export interface StreamedReply {
  contentType: string;
  frames: Array<string | Uint8Array>;
  /**
   * How many frames go out before the emulator holds the response open, by where the reply is cut (`text`: through
   * the first text chunk); a point the reply does not reach sends every frame.
   */
  cuts: Partial<Record<CutPoint, number>>;
  /** Called once every frame went out: the response completed (the Responses API then keeps its items). */
  completed?: () => void;
}

/** What a reply is made from: the request, a source of fresh ids, and the API's record of what it issued. */
export interface Issue<Ledger> {
  path: string;
  body: Record<string, unknown>;
  nextId: () => number;
  ledger: Ledger;
}

/**
 * One provider API: its routes, its history rules and its wire format. `Ledger` is what the API remembers of what it
 * issued (signatures, stored items), one per emulator, which its rules check later requests against.
 */
export interface ProviderApi<Ledger = undefined> {
  readonly name: string;
  newLedger(): Ledger;
  /** Whether this module serves a POST to `path`, and whether the request asks for a stream. */
  route(path: string, body: Record<string, unknown>): { stream: boolean } | undefined;
  /** The provider's rejection of this request's history, if it breaks one of its rules. */
  validate(body: Record<string, unknown>, ledger: Ledger, path: string): Rejection | undefined;
  lastTurn(body: Record<string, unknown>): LastTurn;
  json(reply: ScriptedReply, issue: Issue<Ledger>): unknown;
  stream(reply: ScriptedReply, issue: Issue<Ledger>): StreamedReply;
}

/** An API without a ledger: nothing it issued is checked later. */
export const NO_LEDGER = () => undefined;

/** A request the emulator received, the status it answered and the error body it rejected it with (if any). */
export interface RecordedRequest {
  provider: string;
  path: string;
  body: Record<string, unknown>;
  status: number;
  rejected?: string;
}

/** One SSE frame. */
export const sse = (data: unknown, event?: string) =>
  `${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`;

/** The emulator's HTTPS side: its `host:port`, and the certificate a client trusts to reach it. */
export interface TlsEndpoint {
  endpoint: string;
  ca: string;
}

let certificate: Promise<{ key: string; cert: string }> | undefined;

/**
 * A self-signed certificate for 127.0.0.1 (an EC key, valid one day), made once per process with `openssl`; only a
 * client given it as its CA trusts the emulator.
 */
function selfSignedCertificate() {
  certificate ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), "provider-emulator-"));
    try {
      const [key, cert] = [join(dir, "key.pem"), join(dir, "cert.pem")];
      await promisify(execFile)("openssl", [
        ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1"],
        ...["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert],
      ]);
      return { key: await readFile(key, "utf8"), cert: await readFile(cert, "utf8") };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  })();
  return certificate;
}

/** Listens on 127.0.0.1, on a free port. */
async function listen(server: Server): Promise<number> {
  // Node closes an idle keep-alive socket after 5 s, and a client that reuses it at that instant gets "socket
  // hang up" (the AWS SDK keeps sockets with no idle timeout of its own). close() ends them all anyway.
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

export class ProviderEmulator {
  /** Every request, in order. */
  readonly requests: RecordedRequest[] = [];
  /** Decides each reply from the last entry of the history. Tests replace it. */
  script: Script = () => ({ text: "ok" });
  private ids = 0;
  private restoreNetwork: () => void = () => {};

  /** Each API's record of what it issued. */
  readonly ledgers = new Map<string, unknown>();

  private constructor(
    private readonly servers: readonly Server[],
    private readonly apis: readonly ProviderApi<unknown>[],
    /** The routes over HTTP: `http://127.0.0.1:<port>`. */
    readonly url: string,
    /** The same routes over HTTPS. */
    readonly tls: TlsEndpoint,
  ) {
    for (const api of apis) this.ledgers.set(api.name, api.newLedger());
  }

  /** Starts an emulator serving `apis` and guards the network until it is closed. */
  static async start(apis: readonly ProviderApi<unknown>[]): Promise<ProviderEmulator> {
    // Requests arrive only once the servers listen, by when `emulator` exists.
    const handle = (req: IncomingMessage, res: ServerResponse) => void emulator.handle(req, res);
    const { key, cert } = await selfSignedCertificate();
    const [server, secure] = [createServer(handle), createSecureServer({ key, cert }, handle)];
    const [port, securePort] = [await listen(server), await listen(secure)];
    const tls = { endpoint: `127.0.0.1:${securePort}`, ca: cert };
    const emulator = new ProviderEmulator([server, secure], apis, `http://127.0.0.1:${port}`, tls);
    emulator.restoreNetwork = guardNetwork();
    return emulator;
  }

  /** The last request that reached `provider`. */
  last(provider: string): RecordedRequest {
    const found = this.requests.filter((r) => r.provider === provider).at(-1);
    if (!found) throw new Error(`no request reached ${provider}`);
    return found;
  }

  async close(): Promise<void> {
    this.restoreNetwork();
    // Stop accepting first, then end what is open: hung streams, and clients still running (a run that ignores its
    // cancel), would keep close() waiting.
    const closed = this.servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())));
    for (const server of this.servers) server.closeAllConnections();
    await Promise.all(closed);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const body = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
    const path = (req.url ?? "/").split("?")[0]!;
    for (const api of this.apis) {
      const route = req.method === "POST" ? api.route(path, body) : undefined;
      if (!route) continue;
      const record: RecordedRequest = { provider: api.name, path, body, status: 200 };
      this.requests.push(record);
      const ledger = this.ledgers.get(api.name);
      const rejection = api.validate(body, ledger, path);
      if (rejection) {
        record.status = rejection.status;
        record.rejected = JSON.stringify(rejection.body);
        res.writeHead(rejection.status, { "content-type": "application/json", ...rejection.headers });
        res.end(JSON.stringify(rejection.body));
        return;
      }
      const reply = this.script(api.lastTurn(body));
      const issue = { path, body, nextId: () => ++this.ids, ledger };
      // With a delay, each frame waits for it; a client that went away meanwhile (a cancelled run) gets nothing more.
      const { frameDelayMs } = reply;
      const gone = async (ms: number) => (await delay(ms), res.destroyed);
      if (!route.stream) {
        // The client gives up when the run is cancelled.
        if (reply.hang || (frameDelayMs !== undefined && (await gone(frameDelayMs)))) return;
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(api.json(reply, issue)));
        return;
      }
      const streamed = api.stream(reply, issue);
      res.writeHead(200, { "content-type": streamed.contentType });
      const cut = reply.hang ? streamed.cuts[reply.hang === true ? "text" : reply.hang] : undefined;
      const frames = cut !== undefined ? streamed.frames.slice(0, cut) : streamed.frames;
      for (const frame of frames) {
        if (frameDelayMs !== undefined && (await gone(frameDelayMs))) return;
        res.write(frame);
      }
      // A reply cut where it never reaches still hangs: the stream is held open after its last frame.
      if (reply.hang) return;
      res.end();
      streamed.completed?.();
      return;
    }
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: `the emulator serves no ${req.method} ${path}` }));
  }
}
