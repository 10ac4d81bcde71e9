// The sandbox takes bodies far larger than one chunk, streamed, and refuses one over --max-body with
// 413 — whether the length is declared up front or only discovered while the body streams in.
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, runCli } from '../helpers/cli.js';
import { sandbox, TOKEN, type TestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/tmp.js';

const PATH = '/integrations/teamMembers';

function members(n: number): { csv: string; records: Record<string, string | null>[] } {
  const records = Array.from({ length: n }, (_, i) => ({
    employeeID: `E${String(i + 1).padStart(7, '0')}`,
    email: i % 3 ? `person.${i}@example.com` : `björn.östberg.${i}@exämple.se`,
    name: i % 5 ? `Person ${i}` : `Müller, Jürgen ${i}`,
    roleCode: i % 4 ? String(i % 12) : null,
    parentKey: `STORE-${(i % 977) + 1}`,
  }));
  const cell = (v: string | null) => (v === null ? '' : /[",]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const csv = ['employeeID,email,name,roleCode,parentKey', ...records.map((r) => Object.values(r).map(cell).join(','))].join('\n');
  return { csv: `${csv}\n`, records };
}

/** The records as Python's json.dumps writes them: a space after every comma and colon. */
function spacedJson(records: readonly Record<string, string | null>[]): Buffer {
  const record = (r: Record<string, string | null>) =>
    `{${Object.entries(r)
      .map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`)
      .join(', ')}}`;
  return Buffer.from(`[${records.map(record).join(', ')}]`);
}

/** POSTs `body` in small chunks, without Content-Length unless `declare`; resolves the status. */
function post(url: string, body: Buffer, declare: boolean): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    if (declare) headers['content-length'] = String(body.length);
    const req = request(`${url}${PATH}`, { method: 'POST', headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (b: Buffer) => parts.push(b));
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(parts).toString('utf8') }));
    });
    req.on('error', reject);
    for (let at = 0; at < body.length; at += 16 * 1024) req.write(body.subarray(at, at + 16 * 1024));
    req.end();
  });
}

let running: TestSandbox | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

describe('sandbox with large bodies', () => {
  it('accepts 50,000 team members uploaded by the CLI and serves them back whole', async () => {
    running = await sandbox();
    const { csv, records } = members(50_000);
    const file = tempDir().write('staff.csv', csv);
    const r = await runCli(['team-members', file, '--yes', '--no-baseline', '--json', '--state', running.stateDir], {
      env: running.env,
    });
    expect(r.json()).toMatchObject({ outcome: 'uploaded', records: 50_000, response: { status: 200, message: '50000 team member(s) uploaded' } });
    expect(await running.stored(PATH)).toEqual(records);
  });

  it('reads a body with spaces after its commas (Python json.dumps), like a compact one', async () => {
    running = await sandbox();
    // About 1 MB, 70 chunks. The time it takes, side by side with a compact body, is bench/limits.js's
    // (it was quadratic once), with 100,000 records.
    const { records } = members(10_000);
    const answer = await post(running.url, spacedJson(records), false);
    expect(answer).toMatchObject({ status: 200 });
    expect(await running.stored(PATH)).toEqual(records);
  });

  it('takes a body exactly at the limit and refuses one byte more with 413, declared or streamed', async () => {
    const body = Buffer.from(JSON.stringify(members(2_000).records));
    running = await sandbox({ maxBody: body.length });
    for (const declare of [true, false]) {
      expect((await post(running.url, body, declare)).status).toBe(200);
      const over = Buffer.concat([body.subarray(0, -1), Buffer.from(' ]')]);
      const refused = await post(running.url, over, declare);
      expect(refused.status).toBe(413);
      expect(JSON.parse(refused.body)).toMatchObject({ status: 413, message: expect.stringContaining(`limit of ${body.length} bytes`) });
    }
    expect(await running.stored(PATH)).toHaveLength(2_000); // the refused bodies changed nothing
  });

  it('`upload sandbox --max-body` sets the limit the CLI upload meets', async () => {
    const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--max-body', '10000'], {
      env: { ...process.env, SANDBOX_TOKEN: TOKEN },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let text = '';
        child.stdout.on('data', (b: Buffer) => (text += b.toString()) && text.includes('\n') && resolve(text.split('\n')[0]!.trim()));
        child.on('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
      });
      const { dir, write } = tempDir();
      const file = write('staff.csv', members(500).csv);
      const r = await runCli(['team-members', file, '--yes', '--no-baseline', '--json', '--state', `${dir}/state`], {
        env: { UPLOAD_TOKEN: TOKEN, UPLOAD_BASE_URL: url },
      });
      expect(r.code).toBe(5);
      expect(r.json()).toMatchObject({ outcome: 'rejected', response: { status: 413 } });
    } finally {
      child.kill('SIGTERM');
    }
  });
});
