// The smaller slips of issue 31, each end to end: a Google Sheets CSV is not "cut short?" on every run,
// a Google Business Profile export's `Store code` is the store's key, a declined protected target says
// to type its name.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { sandbox, type TestSandbox } from '../helpers/sandbox.js';
import { scriptedServer } from '../helpers/scripted-server.js';
import { closeTerminals, inTerminal } from '../helpers/tmux.js';

let sb: TestSandbox | undefined;
afterEach(async () => {
  closeTerminals();
  await sb?.stop();
  sb = undefined;
});

describe('smaller slips', () => {
  it('a Google Sheets CSV (CRLF, no final line break) is not asked whether it was cut short; a short last row still is', async () => {
    sb = await sandbox();
    const sheets = join(sb.dir, 'sheets.csv');
    writeFileSync(sheets, 'employeeID,email,name\r\nE1,a@example.com,A\r\nE2,b@example.com,B');
    const r = await runCli(['team-members', sheets, '--dry-run', '--no-baseline', '--json', '--state', sb.stateDir], { env: sb.env });
    expect(r.code).toBe(0);
    expect(r.json().issues.map((i: { code: string }) => i.code)).not.toContain('NO_FINAL_LINE_BREAK');
    const cut = join(sb.dir, 'cut.csv');
    writeFileSync(cut, 'employeeID,email,name,roleCode\r\nE1,a@example.com,A,1\r\nE2,b@example.com,B');
    const c = await runCli(['team-members', cut, '--dry-run', '--no-baseline', '--json', '--state', sb.stateDir], { env: sb.env });
    expect(c.json().issues.map((i: { code: string }) => i.code)).toContain('NO_FINAL_LINE_BREAK');
  });

  it("a Google Business Profile export's Store code is the store's key", async () => {
    sb = await sandbox();
    const gbp = join(sb.dir, 'gbp.csv');
    writeFileSync(gbp, 'Store code,Email,Monday\nBER-01,ber@example.com,09:00-18:00\n');
    const r = await runCli(['store-cards', gbp, '--dry-run', '--no-baseline', '--json', '--state', sb.stateDir, '--closed-days', 'Tu,We,Th,Fr,Sa,Su'], {
      env: sb.env,
    });
    expect(r.json().mapping).toContainEqual(expect.objectContaining({ field: 'nodeKey', columns: ['Store code'] }));
  });

  it('a declined protected target says to type its name, not to answer y', async () => {
    sb = await sandbox();
    const file = join(sb.dir, 'a.csv');
    writeFileSync(file, 'employeeID,email,name\nE1,a@example.com,A\n');
    const config = join(sb.dir, 'upload.config.json');
    writeFileSync(config, JSON.stringify({ targets: { production: { baseUrl: sb.url, protected: true } } }));
    const t = inTerminal(['team-members', file, '--no-baseline', '--state', sb.stateDir, '--config', config, '--target', 'production'], {
      ...sb.env,
      NO_COLOR: '1',
    });
    await t.until(/Type its name to go ahead/);
    t.type('y');
    const screen = await t.until(/exit 4/);
    expect(screen).toContain("run again and type the target's name, production, to upload");
    expect(screen).not.toContain('answer y');
  });

  // The spinner is the one thing drawn in colour while a run waits; with NO_COLOR it must be plain.
  // FORCE_COLOR=1 makes the spinner's colour library draw colour whatever it detects, so only the
  // tool's own NO_COLOR rule keeps it plain; the run without NO_COLOR shows the check sees colour at
  // all (tmux -e keeps the SGR sequences).
  it.each([
    ['with NO_COLOR=1, the spinner is drawn without colour', { NO_COLOR: '1', FORCE_COLOR: '1' }, false],
    ['without it, the same spinner is cyan', { FORCE_COLOR: '1' }, true],
  ] as const)('%s', async (_title, extra, coloured) => {
    const server = await scriptedServer([{ hang: true }]);
    sb = await sandbox();
    const file = join(sb.dir, 'a.csv');
    writeFileSync(file, 'employeeID,email,name\nE1,a@example.com,A\n');
    const t = inTerminal(['team-members', file, '--yes', '--no-baseline', '--state', sb.stateDir, '--retries', '0'], {
      ...sb.env,
      UPLOAD_BASE_URL: server.url,
      TERM: 'xterm-256color',
      ...extra,
    });
    await t.until(/waiting for the answer/);
    const styled = t.screenWithStyles();
    const spinnerLine = styled.split('\n').find((l) => l.includes('waiting for the answer')) ?? '';
    // SGR 36 (cyan) or any 256/true-colour foreground.
    // eslint-disable-next-line no-control-regex
    const colour = /\u001b\[(?:[0-9;]*;)?(?:3[0-7]|38;[25];[0-9;]+)m/;
    expect(colour.test(spinnerLine), JSON.stringify(spinnerLine)).toBe(coloured);
    if (!coloured) expect(styled).not.toMatch(colour);
    t.press('C-c');
    await t.until(/exit 130/);
  });
});
