// A node:http server on loopback whose answer to each request is scripted (status, headers, body,
// a delay, a reset connection, or no answer at all), and which records every request it receives:
// method, path, headers, body bytes and arrival time. No mocks: the CLI talks to it over TCP.
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TlsOptions } from 'node:tls';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll } from 'vitest';

export type Step =
  /** headers may be computed when the answer goes out (for a Retry-After date relative to now). */
  | { readonly status: number; readonly headers?: Record<string, string> | (() => Record<string, string>); readonly body?: unknown; readonly delayMs?: number }
  /** 200 with the success message for the number of records received, as the real service says. */
  | { readonly ok: true; readonly delayMs?: number; readonly encode?: 'gzip' | 'deflate' | 'br' }
  /** Read the whole body, then destroy the connection without an answer. */
  | { readonly reset: true }
  /** Read the whole body and never answer. */
  | { readonly hang: true }
  /** 200 headers, then a body that never ends: one byte every `everyMs`, or as fast as the client reads. */
  | { readonly drip: number }
  | { readonly endless: true };

export interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  readonly sha256: string;
  /** ms since the server started, when the request's headers arrived. */
  readonly at: number;
}

export interface ScriptedServer {
  readonly url: string;
  readonly port: number;
  readonly requests: Received[];
  /** Resolves when the next request has arrived whole (before it is answered). */
  nextRequest(): Promise<Received>;
  close(): Promise<void>;
}

/** A script: the steps in order, or a function choosing each answer (it may wait for the test's signal). */
export type Script = readonly Step[] | ((req: Received, index: number) => Step | Promise<Step>);

/**
 * Answers request i with steps[i] (after the script runs out, the last step repeats), or with what the
 * script function returns for it. With tls, https.
 */
export async function scriptedServer(script: Script, tls?: { key: string; cert: string } & TlsOptions): Promise<ScriptedServer> {
  const requests: Received[] = [];
  const waiting: ((r: Received) => void)[] = [];
  const started = Date.now();
  const stepFor = (r: Received, i: number) => (typeof script === 'function' ? script(r, i) : script[Math.min(i, script.length - 1)]!);
  const listener: RequestListener = (req, res) => {
    const at = Date.now() - started;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on(
      'end',
      () =>
        void (async () => {
          const body = Buffer.concat(chunks);
          const received = {
            method: req.method ?? '',
            url: req.url ?? '',
            headers: req.headers,
            body,
            sha256: createHash('sha256').update(body).digest('hex'),
            at,
          };
          requests.push(received);
          waiting.shift()?.(received);
          const step = await stepFor(received, requests.length - 1);
          if ('hang' in step) return;
          if ('drip' in step || 'endless' in step) return void endlessBody(res, 'drip' in step ? step.drip : 0);
          if ('reset' in step) return void req.socket.destroy();
          const answer = () => {
            if ('ok' in step) {
              const success = JSON.stringify(successFor(req.url ?? '', body));
              if (!step.encode) return reply(res, 200, {}, success);
              return reply(res, 200, { 'content-encoding': step.encode }, ENCODERS[step.encode](success));
            }
            reply(res, step.status, typeof step.headers === 'function' ? step.headers() : (step.headers ?? {}), step.body);
          };
          if (step.delayMs) setTimeout(answer, step.delayMs);
          else answer();
        })(),
    );
  };
  const server: Server = tls ? createTlsServer(tls, listener) : createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    requests,
    nextRequest: () => new Promise((resolve) => waiting.push(resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An answer whose body never ends, until the client goes away. */
function endlessBody(res: ServerResponse, everyMs: number): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"message": "');
  if (everyMs > 0) {
    const timer = setInterval(() => res.write('x'), everyMs);
    res.on('close', () => clearInterval(timer));
    return;
  }
  const chunk = Buffer.alloc(64 * 1024, 0x78);
  const pump = () => {
    while (!res.destroyed && res.write(chunk));
  };
  res.on('drain', pump);
  pump();
}

const ENCODERS = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync };

/** A Buffer body is sent as it is (an encoded answer); anything else as JSON. */
function reply(res: ServerResponse, status: number, headers: Record<string, string>, body: unknown): void {
  const text = body === undefined ? '' : typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
}

function successFor(url: string, body: Buffer): { message: string; status: number } {
  const n = (JSON.parse(body.toString('utf8')) as unknown[]).length;
  return { message: `${n} ${url.endsWith('storeCards') ? 'store card' : 'team member'}(s) uploaded`, status: 200 };
}

/**
 * Servers for one test file, all closed when the file is done (not after each test, so that tests
 * may run concurrently: most of their time is spent waiting on timers and child processes).
 */
export function serversForFile(): {
  serve(...steps: Step[]): Promise<ScriptedServer>;
  track<T extends { close(): Promise<void> }>(server: T): T;
  /** The URL of a server that has stopped: nothing listens there. */
  deadUrl(): Promise<string>;
} {
  const open: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });
  const track = <T extends { close(): Promise<void> }>(server: T): T => (open.push(server), server);
  return {
    track,
    serve: async (...steps) => track(await scriptedServer(steps)),
    deadUrl: async () => {
      const server = await scriptedServer([{ ok: true }]);
      await server.close();
      return server.url;
    },
  };
}

/** A promise the test opens when it is ready: a script can hold an answer until then. */
export function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}
