// A large CSV file is read on a second thread (src/read/csv-thread.ts); the same file given on standard
// input is read on the main thread. The real CLI, both ways: the same report, the same bytes to send,
// the same refusals on the same lines.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

/** Over 8 MiB (THREAD_FROM_BYTES): 110,000 team members, `bad` of them with an email that is none. */
function people(bad: (i: number) => boolean): string {
  const rows = ['Employee ID,Full Name,E-mail,Role Code,Store Key'];
  for (let i = 1; i <= 110_000; i++) {
    const email = bad(i) ? `søren ${i} at example` : `soren.muller.${i}@corp.example.net`;
    rows.push(`E${String(i).padStart(8, '0')},"Müller, Søren ${i}",${email},${i % 7},STORE-${String(i % 5000).padStart(6, '0')}`);
  }
  return `${rows.join('\r\n')}\r\n`;
}

/** The same run on the file by its path and on standard input; their reports without the source's name. */
async function bothWays(content: string, extra: (dir: string, way: string) => string[] = () => []) {
  const dir = tempDir();
  const file = dir.write('people.csv', content);
  expect(Buffer.byteLength(content)).toBeGreaterThan(8 * 1024 * 1024);
  // Node writes a CPU profile for each thread it ran: the reader's thread is seen to have run, or not.
  const profiles = (way: string) => join(dir.dir, `profiles-${way}`);
  const run = (way: 'path' | 'stdin') =>
    runCli(['team-members', way === 'path' ? file : '-', '--dry-run', '--json', '--state', join(dir.dir, `state-${way}`), ...extra(dir.dir, way)], {
      spawn: true,
      env: { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profiles(way)}` },
      ...(way === 'stdin' ? { input: content } : {}),
    });
  const [byPath, byStdin] = [await run('path'), await run('stdin')];
  expect(readdirSync(profiles('path'))).toHaveLength(2);
  expect(readdirSync(profiles('stdin'))).toHaveLength(1);
  const report = (r: Awaited<ReturnType<typeof run>>) => {
    const { source: _, ...rest } = r.json();
    return JSON.parse(JSON.stringify(rest).replaceAll(file, 'FILE').replaceAll('stdin', 'FILE')) as Record<string, unknown>;
  };
  return { byPath, byStdin, report, dir: dir.dir };
}

describe('a large CSV file, read on the thread and on the main thread', () => {
  it('gives the same report and the same body, byte for byte', async () => {
    const { byPath, byStdin, report, dir } = await bothWays(
      people(() => false),
      (d, way) => ['--payload-out', join(d, `${way}.json`)],
    );
    expect(byPath.code).toBe(0);
    expect(byStdin.code).toBe(0);
    expect(report(byPath)).toEqual(report(byStdin));
    expect(byPath.json()).toMatchObject({ records: 110_000, outcome: 'dry-run' });
    const sent = readFileSync(join(dir, 'path.json'));
    expect(sent.equals(readFileSync(join(dir, 'stdin.json')))).toBe(true);
    expect(JSON.parse(sent.toString('utf8'))).toHaveLength(110_000);
  });

  it('refuses the same records, on the same lines', async () => {
    const { byPath, byStdin, report } = await bothWays(people((i) => i % 20_000 === 7));
    expect(byPath.code).toBe(3);
    expect(report(byPath)).toEqual(report(byStdin));
    const lines = (byPath.json().issues as { line: number; code: string }[]).filter((i) => i.code === 'INVALID_EMAIL').map((i) => i.line);
    expect(lines).toEqual([8, 20_008, 40_008, 60_008, 80_008, 100_008]);
  });
});
