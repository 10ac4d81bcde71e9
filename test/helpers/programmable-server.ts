// A small node:http service programmed per test with a function (so an answer can wait for the
// test's signal): it records every request's exact bytes and by default answers like the real service.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

export interface Answer {
  readonly status: number;
  readonly body: string;
}

export type Script = (req: Received, index: number) => Answer | Promise<Answer>;

export interface ProgrammableServer {
  readonly url: string;
  readonly received: Received[];
  /** Resolves when the next request has arrived whole (before it is answered). */
  nextRequest(): Promise<Received>;
  close(): Promise<void>;
}

/** The answer the real service gives to a valid array. */
export function success(req: Received): Answer {
  const n = (JSON.parse(req.body.toString('utf8')) as unknown[]).length;
  const noun = req.url.endsWith('storeCards') ? 'store card' : 'team member';
  return { status: 200, body: JSON.stringify({ message: `${n} ${noun}(s) uploaded`, status: 200 }) };
}

export async function programmableServer(script: Script = success): Promise<ProgrammableServer> {
  const received: Received[] = [];
  const waiting: ((r: Received) => void)[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (b: Buffer) => chunks.push(b));
    req.on('end', () => void (async () => {
      const r: Received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      received.push(r);
      waiting.shift()?.(r);
      const answer = await script(r, received.length - 1);
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(answer.body);
    })());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    nextRequest: () => new Promise((resolve) => waiting.push(resolve)),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A promise and the function that settles it: to hold an answer back until the test says so. */
export function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}
