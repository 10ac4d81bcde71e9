// Every outbound wait is bounded, name resolution included: a host whose name never resolves holds
// neither the run nor the process past the documented bounds (the webhook's 4 s per attempt, the
// service's connect timeout). The lookup that stalls is a preloaded hook, not real DNS
// (test/helpers/stalled-dns.mjs); without the bound the process would never end.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fixture, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const STALLED_DNS = fileURLToPath(new URL('../helpers/stalled-dns.mjs', import.meta.url));
const env = { NODE_OPTIONS: `--import=${STALLED_DNS}`, UPLOAD_TOKEN: 'token-for-the-dns-test' };

describe.concurrent('a name that never resolves', () => {
  it("a webhook's: the notification gives up (4 s per attempt), the run keeps its outcome and the process ends", async () => {
    const r = await runCli(
      [
        'team-members',
        fixture('team-members.csv'),
        '--dry-run',
        '--json',
        '--state',
        tempDir().dir,
        '--notify',
        'https://hooks.slow.example.test/services/T1/B2/secret',
        '--notify-on',
        'always',
      ],
      { spawn: true, env },
    );
    expect(r.signal).toBeNull();
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ outcome: 'dry-run', exitCode: 0 });
    expect(r.stderr).toContain('the notification to hooks.slow.example.test was not delivered (no answer within 4 s)');
  });

  it("the service's: the connect timeout covers the lookup; unreachable, exit 6, and the process ends", async () => {
    const r = await runCli(
      [
        'team-members',
        fixture('team-members.csv'),
        '--yes',
        '--json',
        '--no-baseline',
        '--state',
        tempDir().dir,
        '--base-url',
        'https://service.slow.example.test',
        '--timeout',
        '2',
        '--retries',
        '0',
      ],
      { spawn: true, env },
    );
    expect(r.signal).toBeNull();
    expect(r.code).toBe(6);
    expect(r.json()).toMatchObject({
      outcome: 'unreachable',
      error: { code: 'UNREACHABLE', message: expect.stringContaining('no connection within 2 s (connect timeout)') },
    });
  });

  it("a PostgreSQL state store's: its connect bound covers the lookup; STATE_UNREACHABLE, exit 2, and the process ends", async () => {
    const r = await runCli(
      [
        'team-members',
        fixture('team-members.csv'),
        '--dry-run',
        '--json',
        '--state',
        'postgres://uploader@db.slow.example.test/scheduling',
        '--base-url',
        'http://127.0.0.1:9',
      ],
      { spawn: true, env: { ...env, UPLOAD_STATE_TIMEOUT_SECONDS: '2' } },
    );
    expect(r.signal).toBeNull();
    expect(r.code).toBe(2);
    expect(r.json().error).toMatchObject({ code: 'STATE_UNREACHABLE', message: expect.stringContaining('db.slow.example.test') });
  });
});
