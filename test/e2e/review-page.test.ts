// --report-html and `upload history --html`, opened in a real browser (headless Chromium over the
// DevTools protocol): the stores, their weeks and the changes are in the rendered DOM, nothing is
// logged to the console (a CSP violation would be), and a hostile value stays text.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { launch, type Browser } from '../helpers/chromium.js';
import { sandbox, type TestSandbox } from '../helpers/sandbox.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

let sb: TestSandbox | undefined;
afterEach(async () => {
  await sb?.stop();
  sb = undefined;
});

const HEADER = 'nodeKey,email,storeConceptCode,mon,tue,wed,thu,fri,sat,sun';
const BEFORE = [
  HEADER,
  'S1,one@example.com,1,09:00-21:00,09:00-21:00,09:00-21:00,09:00-21:00,09:00-22:00,10:00-18:00,closed',
  'S2,two@example.com,2,09:00-21:00,09:00-21:00,09:00-21:00,09:00-21:00,09:00-21:00,10:00-18:00,closed',
  'S3,three@example.com,3,09:00-21:00,09:00-21:00,09:00-21:00,09:00-21:00,09:00-21:00,10:00-18:00,closed',
].join('\n');
const HOSTILE = '<script>window.pwned=1</script>@example.com';
const AFTER = [
  HEADER,
  // Friday past midnight, Sunday opened: a changed week.
  'S1,one@example.com,1,09:00-21:00,09:00-21:00,09:00-21:00,09:00-21:00,18:00-02:30,10:00-18:00,12:00-16:00',
  // Saturday closed.
  'S2,two@example.com,2,09:00-21:00,09:00-21:00,09:00-21:00,09:00-21:00,09:00-21:00,closed,closed',
  'S4,"four@example.com",4,09:00-21:00,09:00-21:00,09:00-21:00,09:00-21:00,09:00-21:00,09:00-21:00,closed',
].join('\n');

async function baseline(s: TestSandbox): Promise<void> {
  const file = join(s.dir, 'before.csv');
  writeFileSync(file, BEFORE);
  const r = await runCli(['store-cards', file, '--yes', '--no-baseline', '--state', s.stateDir], { env: s.env });
  expect(r.code).toBe(0);
}

describe('the review page of a dry run', () => {
  it('shows every change, each changed store’s week, and opens cleanly in Chromium', async () => {
    sb = await sandbox();
    await baseline(sb);
    const file = join(sb.dir, 'after.csv');
    writeFileSync(file, AFTER);
    const page = join(sb.dir, 'review.html');
    const r = await runCli(['store-cards', file, '--dry-run', '--max-removals', '1', '--max-changes', '2', '--state', sb.stateDir, '--report-html', page], {
      env: sb.env,
    });
    expect(r.code).toBe(0);
    expect(statSync(page).mode & 0o777).toBe(0o600);
    const html = readFileSync(page, 'utf8');
    expect(html).toContain('http-equiv="Content-Security-Policy"');
    expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);

    const p = await browser.open(pathToFileURL(page).href);
    try {
      expect(p.messages).toEqual([]);
      // The mapping speaks of Monday and opening hours; the wire name is in its details column.
      const monday = await p.evaluate<string[]>(
        `[...document.querySelector('#mapping tr[data-field="opentToGuestsPeriod.1"]').cells].map((c) => c.textContent)`,
      );
      expect(monday[0]).toBe('Monday opening hours');
      expect(monday.at(-1)).toBe('opentToGuestsPeriod.1');
      const changed = await p.evaluate<string>(`document.querySelector('table.changes tr[data-key="S2"]').cells[3].textContent`);
      expect(changed).toBe('Saturday opening hours');
      const dom = await p.evaluate<{
        outcome: string;
        rows: [string, string][];
        weeks: string[];
        fri: string;
        sat: string;
        sun: string;
        provenance: string;
      }>(`({
        outcome: document.querySelector('[data-outcome]').textContent,
        rows: [...document.querySelectorAll('table.changes tbody tr')].map((r) => [r.dataset.change, r.dataset.key]),
        weeks: [...document.querySelectorAll('figure.week figcaption')].map((f) => f.textContent),
        fri: document.querySelector('figure.week [data-day=Friday] .txt').textContent,
        sat: document.querySelectorAll('figure.week')[1].querySelector('[data-day=Saturday] .txt').textContent,
        sun: document.querySelector('figure.week [data-day=Sunday] .txt').textContent,
        provenance: document.querySelector('#provenance').textContent,
      })`);
      expect(dom.outcome).toBe('dry-run');
      expect(dom.rows).toEqual([
        ['changed', 'S1'],
        ['changed', 'S2'],
        ['added', 'S4'],
        ['removed', 'S3'],
      ]);
      expect(dom.weeks.map((w) => w.split(' · ')[0])).toEqual(['S1', 'S2', 'S4']);
      expect(dom.fri).toBe('09:00–22:00 → 18:00–02:30 (next day)');
      expect(dom.sat).toBe('10:00–18:00 → closed');
      expect(dom.sun).toBe('closed → 12:00–16:00');
      expect(dom.provenance).toContain('upload #1');
      // Every guard's verdict, from the report's guards.
      const guards = await p.evaluate<string[][]>(
        `[...document.querySelectorAll('#guards tr[data-guard]')].map((r) => [r.cells[0].textContent, r.cells[1].textContent])`,
      );
      expect(guards).toContainEqual(['TOO_MANY_REMOVALS', 'passed']);
      expect(guards).toContainEqual(['TOO_MANY_CHANGES', 'passed']);
      // The script sorts and filters: by text, then by type with the radio buttons.
      const filtered = await p.evaluate<string[]>(`(async () => {
        const box = document.querySelector('#changes input.filter');
        box.value = 'three';
        box.dispatchEvent(new Event('input'));
        await new Promise((r) => setTimeout(r, 300));
        return [...document.querySelectorAll('table.changes tbody tr')].map((r) => r.dataset.key);
      })()`);
      expect(filtered).toEqual(['S3']);
      const added = await p.evaluate<string[]>(`(async () => {
        const box = document.querySelector('#changes input.filter');
        box.value = '';
        box.dispatchEvent(new Event('input'));
        await new Promise((r) => setTimeout(r, 300));
        document.querySelector('#show-added').click();
        return [...document.querySelectorAll('table.changes tbody tr')].filter((r) => r.offsetParent !== null).map((r) => r.dataset.key);
      })()`);
      expect(added).toEqual(['S4']);
    } finally {
      await p.close();
    }
  });

  it('keeps hostile values as text, and lists every issue with file:line, column and value', async () => {
    sb = await sandbox();
    const file = join(sb.dir, 'hostile.csv');
    writeFileSync(file, [HEADER, `S1,${HOSTILE},1,09:00-21:00,,,,,,`, `S2,"<img src=x onerror=window.pwned=2>",x,25:00-26:00,,,,,,`].join('\n'));
    const page = join(sb.dir, 'issues.html');
    const r = await runCli(['store-cards', file, '--dry-run', '--no-baseline', '--state', sb.stateDir, '--report-html', page], { env: sb.env });
    expect(r.code).toBe(3);
    const p = await browser.open(pathToFileURL(page).href);
    try {
      expect(p.messages).toEqual([]);
      const dom = await p.evaluate<{ pwned: unknown; scripts: number; images: number; issues: string[][]; outcome: string }>(`({
        pwned: window.pwned ?? null,
        scripts: document.querySelectorAll('script').length,
        images: document.querySelectorAll('img').length,
        outcome: document.querySelector('[data-outcome]').textContent,
        issues: [...document.querySelectorAll('#issues tbody tr')].map((r) => [...r.cells].map((c) => c.textContent)),
      })`);
      expect(dom.pwned).toBeNull();
      expect(dom.scripts).toBe(1);
      expect(dom.images).toBe(0);
      expect(dom.outcome).toBe('invalid');
      const email = dom.issues.find((i) => i[1] === 'INVALID_EMAIL' && i[2] === `${file}:2`);
      expect(email?.[3]).toBe('email');
      expect(email?.[5]).toBe(HOSTILE);
      expect(dom.issues.find((i) => i[2] === `${file}:3` && i[5] === '<img src=x onerror=window.pwned=2>')).toBeDefined();
      expect(dom.issues.find((i) => i[2] === `${file}:3` && i[1] === 'NOT_A_NUMBER')?.[5]).toBe('x');
    } finally {
      await p.close();
    }
  });
});

describe('without JavaScript', () => {
  it('still lists every change, and the buttons filter by type', async () => {
    sb = await sandbox();
    await baseline(sb);
    const file = join(sb.dir, 'after.csv');
    writeFileSync(file, AFTER);
    const page = join(sb.dir, 'plain.html');
    const r = await runCli(['store-cards', file, '--dry-run', '--max-removals', '1', '--max-changes', '2', '--state', sb.stateDir, '--report-html', page], {
      env: sb.env,
    });
    expect(r.code).toBe(0);
    const p = await browser.open(pathToFileURL(page).href, undefined, { javascript: false });
    try {
      expect(p.messages).toEqual([]);
      const visible = `[...document.querySelectorAll('table.changes tbody tr')].filter((r) => r.offsetParent !== null).map((r) => r.dataset.key)`;
      const state = await p.evaluate<{ js: boolean; filterBox: number; rows: string[] }>(
        `({ js: document.documentElement.classList.contains('js'), filterBox: document.querySelectorAll('input.filter').length, rows: ${visible} })`,
      );
      expect(state).toEqual({ js: false, filterBox: 0, rows: ['S1', 'S2', 'S4', 'S3'] });
      expect(await p.evaluate<string[]>(`(document.querySelector('label[for=show-removed]').click(), ${visible})`)).toEqual(['S3']);
      expect(await p.evaluate<string[]>(`(document.querySelector('label[for=show-changed]').click(), ${visible})`)).toEqual(['S1', 'S2']);
    } finally {
      await p.close();
    }
  });
});

describe('a hostile name in the changes', () => {
  it('is text in the table, and nothing runs', async () => {
    sb = await sandbox();
    const name = '<script>window.pwned=1</script><b>Bob</b>';
    const file = join(sb.dir, 'staff.csv');
    writeFileSync(file, `employeeID,email,name\nE1,bob@example.com,"${name}"\n`);
    const page = join(sb.dir, 'staff.html');
    const r = await runCli(['team-members', file, '--dry-run', '--no-baseline', '--state', sb.stateDir, '--report-html', page], { env: sb.env });
    expect(r.code).toBe(0);
    const p = await browser.open(pathToFileURL(page).href);
    try {
      expect(p.messages).toEqual([]);
      const dom = await p.evaluate<{ pwned: unknown; bold: number; label: string }>(`({
        pwned: window.pwned ?? null,
        bold: document.querySelectorAll('#changes b').length,
        label: document.querySelector('table.changes tbody tr').cells[2].textContent,
      })`);
      expect(dom).toEqual({ pwned: null, bold: 0, label: name });
    } finally {
      await p.close();
    }
  });
});

describe('the review page of an upload and of the history', () => {
  it('records the generation, and the history page lists every upload', async () => {
    sb = await sandbox();
    await baseline(sb);
    const file = join(sb.dir, 'after.csv');
    writeFileSync(file, AFTER);
    const page = join(sb.dir, 'upload.html');
    const r = await runCli(['store-cards', file, '--yes', '--max-removals', '1', '--max-changes', '2', '--state', sb.stateDir, '--report-html', page], {
      env: sb.env,
    });
    expect(r.code).toBe(0);
    const history = join(sb.dir, 'history.html');
    const h = await runCli(['history', 'store-cards', '--state', sb.stateDir, '--html', history], { env: sb.env });
    expect(h.code).toBe(0);
    expect(statSync(history).mode & 0o777).toBe(0o600);

    const p = await browser.open(pathToFileURL(page).href);
    try {
      expect(p.messages).toEqual([]);
      expect(await p.evaluate<string>(`document.querySelector('#outcome').textContent`)).toContain('Recorded as upload #2.');
    } finally {
      await p.close();
    }
    const q = await browser.open(pathToFileURL(history).href);
    try {
      expect(q.messages).toEqual([]);
      const rows = await q.evaluate<string[]>(
        `[...document.querySelectorAll('tr[data-generation]')].map((r) => r.cells[0].textContent + ' ' + r.cells[5].textContent)`,
      );
      expect(rows).toEqual(['#2 +1 −1 ~2', '#1 +3 −0 ~0']);
      // What each upload was, in words; the tool's names only in the details column.
      const what = await q.evaluate<string[]>(`[...document.querySelectorAll('tr[data-generation] td.what')].map((c) => c.textContent)`);
      expect(what[0]).toBe(`Replaced the whole list with the 3 store cards of ${file}`);
      const details = await q.evaluate<string>(`document.querySelector('tr[data-generation] td.details').textContent`);
      expect(details).toMatch(/^operation upload/);
    } finally {
      await q.close();
    }
  });
});

describe('the history page says what each upload was', () => {
  it('a merge, a removal, held removals and a restore, in the store manager’s words', async () => {
    sb = await sandbox();
    await baseline(sb);
    const env = sb.env;
    const state = ['--state', sb.stateDir];
    const merge = join(sb.dir, 'new-store.csv');
    writeFileSync(merge, [HEADER, 'S9,nine@example.com,9,09:00-21:00,09:00-21:00,09:00-21:00,09:00-21:00,09:00-21:00,10:00-18:00,closed'].join('\n'));
    expect((await runCli(['store-cards', merge, '--merge', '--yes', ...state], { env })).code).toBe(0);
    expect((await runCli(['remove', 'store-cards', 'S9', '--yes', ...state], { env })).code).toBe(0);
    const only = join(sb.dir, 'only-s1.csv');
    writeFileSync(only, [HEADER, BEFORE.split('\n')[1]].join('\n'));
    expect((await runCli(['store-cards', only, '--yes', '--hold-removals', ...state], { env })).code).toBe(9);
    expect((await runCli(['restore', 'store-cards', '--generation', '1', '--yes', ...state], { env })).code).toBe(0);
    const history = join(sb.dir, 'history.html');
    expect((await runCli(['history', 'store-cards', ...state, '--html', history], { env })).code).toBe(0);
    const q = await browser.open(pathToFileURL(history).href);
    try {
      expect(q.messages).toEqual([]);
      const rows = await q.evaluate<[string, string, string][]>(
        `[...document.querySelectorAll('tr[data-generation]')].map((r) => [r.cells[0].textContent, r.querySelector('td.what').textContent, r.dataset.operation])`,
      );
      expect(rows).toEqual([
        ['#5', 'Put back the list as it was after upload #1', 'restore'],
        [
          '#4',
          `Replaced the whole list with the 3 store cards of ${only}Held back 2 removals: kept 2 store cards the file left out, instead of deleting them: S2, S3`,
          'upload',
        ],
        ['#3', 'Took store cards off the list (keys S9)', 'remove'],
        ['#2', `Added or updated the store cards in ${merge}, kept every other one`, 'merge'],
        ['#1', expect.stringMatching(/^Replaced the whole list with the 3 store cards of /), 'upload'],
      ]);
      // The wire names are in the details column only.
      const what = await q.evaluate<string>(`[...document.querySelectorAll('td.what')].map((c) => c.textContent).join(' ')`);
      expect(what).not.toMatch(/heldRemovals|operation|sha256/);
      expect(await q.evaluate<string>(`document.querySelector('tr[data-generation="4"] td.details').textContent`)).toContain('heldRemovals 2');
    } finally {
      await q.close();
    }
  });
});

describe('the review page of restore and apply', () => {
  it('lists what going back one upload would change, and what an applied plan changed', async () => {
    sb = await sandbox();
    await baseline(sb);
    const file = join(sb.dir, 'after.csv');
    writeFileSync(file, AFTER);
    const limits = ['--max-removals', '1', '--max-changes', '2'];
    expect((await runCli(['store-cards', file, '--yes', ...limits, '--state', sb.stateDir], { env: sb.env })).code).toBe(0);
    const restorePage = join(sb.dir, 'restore.html');
    const r = await runCli(['restore', 'store-cards', '--dry-run', ...limits, '--state', sb.stateDir, '--report-html', restorePage], { env: sb.env });
    expect(r.code).toBe(0);
    const p = await browser.open(pathToFileURL(restorePage).href);
    try {
      expect(p.messages).toEqual([]);
      const rows = await p.evaluate<string[]>(`[...document.querySelectorAll('table.changes tbody tr')].map((r) => r.dataset.change + ' ' + r.dataset.key)`);
      // Going back undoes the upload: S3 comes back, S4 goes.
      expect(rows.sort()).toEqual(['added S3', 'changed S1', 'changed S2', 'removed S4']);
      expect(await p.evaluate<string>(`document.querySelector('#provenance').textContent`)).toContain('upload #2');
    } finally {
      await p.close();
    }

    const plan = join(sb.dir, 'back.plan.json');
    const before = join(sb.dir, 'before.csv');
    expect((await runCli(['store-cards', before, '--dry-run', ...limits, '--state', sb.stateDir, '--plan-out', plan], { env: sb.env })).code).toBe(0);
    const applyPage = join(sb.dir, 'apply.html');
    const a = await runCli(['apply', plan, '--yes', '--state', sb.stateDir, '--report-html', applyPage], { env: sb.env });
    expect(a.code).toBe(0);
    const q = await browser.open(pathToFileURL(applyPage).href);
    try {
      expect(q.messages).toEqual([]);
      const rows = await q.evaluate<string[]>(`[...document.querySelectorAll('table.changes tbody tr')].map((r) => r.dataset.change + ' ' + r.dataset.key)`);
      expect(rows.sort()).toEqual(['added S3', 'changed S1', 'changed S2', 'removed S4']);
      const provenance = await q.evaluate<string>(`document.querySelector('#provenance').textContent`);
      expect(provenance).toContain(plan);
      expect(await q.evaluate<string>(`document.querySelector('#outcome').textContent`)).toContain('Recorded as upload #3.');
    } finally {
      await q.close();
    }
  });
});
