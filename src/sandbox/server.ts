// The reference service: docs/service-interface.md on loopback, answering what the interface leaves open
// as a careful service would — always a JSON body {message, status}.
import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { kindForPath, type KindInfo } from '../contract/kinds.js';
import { successMessage } from '../contract/message.js';
import { UploadError } from '../errors.js';
import { BodyIdle, parseBody, TooLarge } from './body.js';
import { SandboxStore } from './store.js';

export interface SandboxOptions {
  readonly token: string;
  readonly host?: string;
  readonly port?: number;
  readonly dataDir?: string | undefined;
  readonly maxBody?: number;
  /** One line per request, for the operator. */
  readonly log?: (line: string) => void;
  /** How long a client may take to send its headers, and its whole request (ms); tests make them short. */
  readonly headersTimeoutMs?: number;
  readonly requestTimeoutMs?: number;
  /** How long a body may stop arriving before the request is dropped (ms). */
  readonly bodyIdleMs?: number;
}

/**
 * Slow clients are closed: headers within 30 s, a whole request (1 GiB at loopback speed) within 10
 * minutes, and a body that stops arriving — no byte for 30 s — at once then, without an answer.
 */
export const TIMEOUTS = { headersMs: 30_000, requestMs: 600_000, keepAliveMs: 5_000, bodyIdleMs: 30_000 } as const;

export interface Sandbox {
  readonly url: string;
  readonly port: number;
  readonly store: SandboxStore;
  close(): Promise<void>;
}

// 1 GiB: room for the largest real upload (2 million team members are about 275 MB of JSON) and more.
export const DEFAULT_MAX_BODY = 1024 * 1024 * 1024;

function answer(res: ServerResponse, status: number, message: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ message, status, ...extra });
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

function authorised(req: IncomingMessage, token: string): boolean {
  const expected = Buffer.from(`Bearer ${token}`);
  const given = Buffer.from(req.headers.authorization ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function drainOrClose(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

export async function startSandbox(options: SandboxOptions): Promise<Sandbox> {
  if (!options.token) throw new Error('the sandbox needs a token');
  const store = new SandboxStore(options.dataDir);
  await store.load();
  const maxBody = options.maxBody ?? DEFAULT_MAX_BODY;
  const log = options.log ?? (() => {});

  const handle = async (req: IncomingMessage, res: ServerResponse, info: KindInfo): Promise<string> => {
    if (!authorised(req, options.token)) {
      answer(res, 401, 'missing or wrong bearer token', {}, { 'www-authenticate': 'Bearer realm="sandbox"' });
      return 'unauthorised';
    }
    if (req.method === 'GET') {
      const set = store.get(info.kind);
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      for await (const chunk of store.bytes(set)) {
        if (res.destroyed) break;
        // A client that goes away never drains: stop on close as well.
        if (!res.write(chunk)) await drainOrClose(res);
      }
      res.end();
      return `${set.count} records`;
    }
    if (req.method !== 'POST' && req.method !== 'PUT') {
      answer(res, 405, `method ${req.method} is not allowed here; use POST`, {}, { allow: 'GET, POST, PUT' });
      return 'method';
    }
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') {
      answer(res, 415, `content type must be application/json, not ${type || 'missing'}`);
      return 'content type';
    }
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > maxBody) {
      answer(res, 413, `body of ${declared} bytes is over the limit of ${maxBody} bytes`, {}, { connection: 'close' });
      return 'too large';
    }
    // With a data directory the body goes to its set's temp file as it is parsed; it is put in place
    // only if the whole body is accepted, and removed otherwise.
    let staged = await store.stage(info.kind);
    try {
      const result = await parseBody(req, info.kind, maxBody, staged, options.bodyIdleMs ?? TIMEOUTS.bodyIdleMs);
      if (!result.ok) {
        // Cleared before the answer, so a client that looks finds nothing left of its body.
        await staged?.abort();
        staged = undefined;
        answer(res, 400, result.message, { errors: result.errors });
        return `invalid: ${result.message}`;
      }
      const replacing = store.replace(info.kind, result, staged);
      staged = undefined; // replace() owns it now
      await replacing;
      answer(res, 200, successMessage(info, result.count));
      return `${result.count} records stored`;
    } finally {
      await staged?.abort();
    }
  };

  // A client that sends its headers or its body slowly (or never) is cut off instead of holding a socket.
  // Node checks both timeouts on an interval, so the interval follows the shortest of them.
  const headersTimeout = options.headersTimeoutMs ?? TIMEOUTS.headersMs;
  const requestTimeout = options.requestTimeoutMs ?? TIMEOUTS.requestMs;
  const limits = { headersTimeout, requestTimeout, keepAliveTimeout: TIMEOUTS.keepAliveMs, connectionsCheckingInterval: Math.min(1000, headersTimeout / 2) };
  const server: Server = createServer(limits, (req, res) => {
    const started = Date.now();
    const path = new URL(req.url ?? '/', 'http://sandbox').pathname;
    const info = kindForPath(path);
    const done = (what: string) => log(`${req.method} ${path} ${res.statusCode} ${what} ${Date.now() - started}ms`);
    if (!info) {
      answer(res, 404, `no such path ${path}; the service has /integrations/storeCards and /integrations/teamMembers`);
      req.resume();
      return done('not found');
    }
    handle(req, res, info).then(done, (err: unknown) => {
      if (err instanceof TooLarge) {
        if (!res.headersSent) answer(res, 413, `body is over the limit of ${maxBody} bytes`, {}, { connection: 'close' });
        return done('too large');
      }
      // The request was destroyed with its connection: there is no one left to answer.
      if (err instanceof BodyIdle) return done(`dropped: ${err.message}`);
      if (!res.headersSent) answer(res, 500, 'internal error');
      else res.destroy();
      done(`error: ${err instanceof UploadError ? err.code : (err as Error).message}`);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    store,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
