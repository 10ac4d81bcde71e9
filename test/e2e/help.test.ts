// --help is where a new user starts: each command shows examples and the exit codes.
import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main, type ProcessIo } from '../../src/cli/main.js';
import { EXIT } from '../../src/errors.js';

async function help(argv: string[]): Promise<{ code: number; out: string }> {
  const stdout = new PassThrough();
  const chunks: Buffer[] = [];
  stdout.on('data', (c: Buffer) => chunks.push(c));
  const io = { stdin: new PassThrough(), stdout, stderr: new PassThrough(), env: {} } as unknown as ProcessIo;
  const code = await main(argv, io);
  return { code, out: Buffer.concat(chunks).toString('utf8') };
}

describe('--help', () => {
  it.each([['store-cards'], ['team-members']])('%s shows examples and the exit codes', async (kind) => {
    const { code, out } = await help([kind, '--help']);
    expect(code).toBe(0);
    expect(out).toContain(`$ upload ${kind} `);
    expect(out).toContain('--dry-run');
    expect(out).toMatch(/Exit codes:[\s\S]*4 refused by a safety guard/);
    expect(out).toContain('--merge');
    expect(out).toContain('--hold-removals');
    // Every exit code the tool can end with is in the list.
    for (const n of Object.values(EXIT)) expect(out).toMatch(new RegExp(`(^|\\s)${n} \\S`));
    // Most files people have are workbooks straight out of Excel: the help says they are read.
    expect(out).toMatch(/a workbook \(\.xlsx, \.xlsm, \.xls\s+or\s+\.ods/);
  });

  it.each([['export'], ['remove']])('%s shows its examples', async (command) => {
    const { code, out } = await help([command, '--help']);
    expect(code).toBe(0);
    expect(out).toContain(`$ upload ${command} `);
  });

  it('--version names the tool, its version from package.json and the Node it runs on', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    const { code, out } = await help(['--version']);
    expect(code).toBe(0);
    expect(out).toBe(`scheduling-upload ${version} (Node ${process.version}, ${process.platform}-${process.arch})\n`);
  });

  it('the program help lists the commands, examples and exit codes', async () => {
    const { code, out } = await help(['--help']);
    expect(code).toBe(0);
    expect(out).toMatch(/sandbox[\s\S]*template/);
    expect(out).toMatch(/Examples:[\s\S]*Exit codes:[\s\S]*130 interrupted/);
  });
});

describe('the short and the older names', () => {
  it('-n is --dry-run, and --state-dir still names the store though --help no longer shows it', async () => {
    const { runCli, fixture } = await import('../helpers/cli.js');
    const r = await runCli(['team-members', fixture('team-members.csv'), '-n', '--no-baseline', '--json'], {
      env: { UPLOAD_BASE_URL: 'https://scheduling.example.com' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ outcome: 'dry-run', dryRun: true });
    // --state-dir is still read as the store: naming another one with --state is a question.
    const both = await runCli(['team-members', fixture('team-members.csv'), '-n', '--json', '--state', '/tmp/a', '--state-dir', '/tmp/b']);
    expect(both.code).toBe(2);
    expect(both.json().error).toMatchObject({ code: 'BAD_FLAG', message: expect.stringContaining("--state-dir '/tmp/b'") });
  });
});
