// Headless Chromium driven over the DevTools protocol with Node's own WebSocket (Node 22+): open a
// page, collect every console message, exception and log entry (CSP violations arrive as log
// errors), evaluate expressions in it, and take screenshots. No package from elsewhere.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HANG_MS } from './hang.js';

interface Socket {
  send(data: string): void;
  close(): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  addEventListener(type: 'open' | 'close' | 'error', listener: () => void): void;
}
const WebSocketClass = (globalThis as unknown as { WebSocket?: new (url: string) => Socket }).WebSocket;

export const chromiumPath = ['chromium', 'chromium-browser']
  .map((name) =>
    process.env.PATH?.split(':')
      .map((dir) => join(dir, name))
      .find((p) => isExecutable(p)),
  )
  .find(Boolean);

function isExecutable(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export interface Console {
  readonly level: string;
  readonly text: string;
}

export interface Browser {
  /** Opens a page and waits for its load event; what it logged is in `messages`. */
  open(url: string, size?: { width: number; height: number }, options?: { javascript?: boolean }): Promise<Page>;
  close(): Promise<void>;
}

export interface Page {
  readonly messages: Console[];
  evaluate<T>(expression: string): Promise<T>;
  /** A PNG of the page from `y` (CSS pixels, default the top), `height` high (default: to the end, at most 20,000). */
  screenshot(options?: { y?: number; height?: number }): Promise<Buffer>;
  close(): Promise<void>;
}

type Pending = { resolve(value: Record<string, unknown>): void; reject(err: Error): void };

export async function launch(): Promise<Browser> {
  if (!chromiumPath) throw new Error('chromium is not installed (apt-get install chromium)');
  if (!WebSocketClass) throw new Error('this Node has no global WebSocket (Node 22 or later)');
  const profile = mkdtempSync(join(tmpdir(), 'su-chromium-'));
  const child: ChildProcess = spawn(
    chromiumPath,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--no-default-browser-check',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    // Its own process group, so closing it ends its helper processes too (they write into the profile).
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  const endpoint = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`chromium did not start: ${seen.slice(-500)}`)), HANG_MS);
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.on('exit', (code) => reject(new Error(`chromium exited with ${code}: ${seen.slice(-500)}`)));
  });
  const ws = new WebSocketClass(endpoint);
  await new Promise<void>((resolve, reject) => {
    ws.addEventListener('open', () => resolve());
    ws.addEventListener('error', () => reject(new Error('cannot connect to chromium')));
  });
  let nextId = 1;
  const pending = new Map<number, Pending>();
  const listeners = new Map<string, (method: string, params: Record<string, unknown>) => void>();
  ws.addEventListener('message', (event) => {
    const msg = JSON.parse(String(event.data)) as {
      id?: number;
      result?: Record<string, unknown>;
      error?: { message: string };
      method?: string;
      params?: Record<string, unknown>;
      sessionId?: string;
    };
    if (msg.id !== undefined) {
      const p = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) p?.reject(new Error(msg.error.message));
      else p?.resolve(msg.result ?? {});
    } else if (msg.method && msg.sessionId) listeners.get(msg.sessionId)?.(msg.method, msg.params ?? {});
  });
  const call = (method: string, params: Record<string, unknown> = {}, sessionId?: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });

  return {
    async open(url, size = { width: 1280, height: 900 }, options = {}) {
      const { targetId } = (await call('Target.createTarget', { url: 'about:blank' })) as { targetId: string };
      const { sessionId } = (await call('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string };
      const messages: Console[] = [];
      let loaded: () => void = () => {};
      const load = new Promise<void>((resolve) => (loaded = resolve));
      listeners.set(sessionId, (method, params) => {
        if (method === 'Runtime.consoleAPICalled') {
          const args = (params.args as { value?: unknown; description?: string }[]).map(
            (a) => a.description ?? (typeof a.value === 'string' ? a.value : JSON.stringify(a.value ?? '')),
          );
          messages.push({ level: String(params.type), text: args.join(' ') });
        } else if (method === 'Runtime.exceptionThrown') {
          const d = params.exceptionDetails as { text: string; exception?: { description?: string } };
          messages.push({ level: 'exception', text: `${d.text} ${d.exception?.description ?? ''}` });
        } else if (method === 'Log.entryAdded') {
          const e = params.entry as { level: string; text: string };
          messages.push({ level: e.level, text: e.text });
        } else if (method === 'Page.loadEventFired') loaded();
      });
      const s = (method: string, params?: Record<string, unknown>) => call(method, params, sessionId);
      await Promise.all([s('Runtime.enable'), s('Log.enable'), s('Page.enable')]);
      await s('Emulation.setDeviceMetricsOverride', { width: size.width, height: size.height, deviceScaleFactor: 1, mobile: false });
      // The page's own scripts off, as a reader with JavaScript disabled sees it (evaluate still works).
      if (options.javascript === false) await s('Emulation.setScriptExecutionDisabled', { value: true });
      await s('Page.navigate', { url });
      await load;
      return {
        messages,
        async evaluate<T>(expression: string) {
          const r = (await s('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true })) as {
            result: { value: T };
            exceptionDetails?: { text: string; exception?: { description?: string } };
          };
          if (r.exceptionDetails) throw new Error(`${r.exceptionDetails.text} ${r.exceptionDetails.exception?.description ?? ''}`);
          return r.result.value;
        },
        async screenshot(options = {}) {
          const { contentSize } = (await s('Page.getLayoutMetrics')) as { contentSize: { width: number; height: number } };
          const y = options.y ?? 0;
          const height = Math.min(contentSize.height - y, options.height ?? 20_000);
          const { data } = (await s('Page.captureScreenshot', {
            format: 'png',
            captureBeyondViewport: true,
            clip: { x: 0, y, width: size.width, height, scale: 1 },
          })) as { data: string };
          return Buffer.from(data, 'base64');
        },
        async close() {
          listeners.delete(sessionId);
          await call('Target.closeTarget', { targetId });
        },
      };
    },
    async close() {
      ws.close();
      const exited = new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : child.once('exit', resolve)));
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL'); // the group is gone already
      }
      await exited;
      // A helper killed a moment ago may still have a file open in the profile: rm tries again (ENOTEMPTY).
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
}
