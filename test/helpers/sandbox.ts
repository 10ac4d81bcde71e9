// A real sandbox on an ephemeral loopback port with its own data directory, per test.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';

export const TOKEN = 'test-token-Zq8Xv2';

export interface TestSandbox extends Sandbox {
  readonly dir: string;
  readonly dataDir: string;
  /** Environment for the CLI to upload to this sandbox, with a state directory of its own. */
  readonly env: Record<string, string>;
  readonly stateDir: string;
  /** GET a kind's stored array. */
  stored(path: '/integrations/storeCards' | '/integrations/teamMembers'): Promise<unknown[]>;
  stop(): Promise<void>;
}

export async function sandbox(options: { maxBody?: number; dataDir?: string } = {}): Promise<TestSandbox> {
  const dir = await mkdtemp(join(tmpdir(), 'su-test-'));
  const dataDir = options.dataDir ?? join(dir, 'data');
  const s = await startSandbox({ token: TOKEN, dataDir, maxBody: options.maxBody });
  const stateDir = join(dir, 'state');
  return {
    ...s,
    dir,
    dataDir,
    stateDir,
    env: { UPLOAD_TOKEN: TOKEN, UPLOAD_BASE_URL: s.url },
    stored: async (path) => {
      const res = await fetch(`${s.url}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
      return (await res.json()) as unknown[];
    },
    stop: async () => {
      await s.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
