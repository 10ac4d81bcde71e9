// Each verdict a notification can carry, the command it says to run next, and the one rule that keeps
// keys that could be emails or names out of every format.
import { describe, expect, it } from 'vitest';
import { formatNotification } from '../../src/notify/formats.js';
import { listableKeys, looksLikeCode } from '../../src/notify/safe-keys.js';
import { notification, type NotifiedReport, type RunFacts } from '../../src/notify/summary.js';
import { NO_BASELINE } from '../../src/report/report.js';
import type { Outcome } from '../../src/errors.js';

const report = (outcome: Outcome, exitCode: number, code: string | null, over: Partial<NotifiedReport> = {}): NotifiedReport => ({
  kind: 'store-cards',
  source: 'stores.csv',
  dryRun: false,
  outcome,
  exitCode,
  records: 40,
  issues: [],
  issueCounts: {},
  issuesTruncated: false,
  mapping: [],
  baseline: NO_BASELINE,
  diff: { baseline: 'snapshot', added: 40, removed: 40, changed: 0, unchanged: 0, examples: { added: [], removed: [], changed: [] } },
  unchanged: false,
  generation: exitCode === 0 || exitCode === 9 ? 12 : null,
  response: null,
  error: code ? { code, message: 'a message that may quote a cell: anna@example.com', hint: null, fixes: [], service: null } : null,
  guards: null,
  ...over,
});
const facts: RunFacts = {
  command: 'store-cards',
  operation: 'upload',
  argv: ['store-cards', '/data/my stores.csv', '-y', '--json', '--target', 'prod', '--notify-format', 'slack', '--notify', '***'],
  target: 'prod',
  service: 'api.example.com',
  host: 'sync-01',
  durationMs: 2000,
};

describe('the verdict and the next command', () => {
  const cases: [string, NotifiedReport, string, RegExp][] = [
    ['success', report('uploaded', 0, null), '✅', /^upload history store-cards --target prod$/],
    ['held-removals', report('uploaded', 9, null, { heldRemovals: ['0001'] }), '⚠️', /^upload release store-cards --target prod --dry-run$/],
    [
      'refused',
      report('refused', 4, 'TOO_MANY_REMOVALS'),
      '🛑',
      /^upload store-cards '\/data\/my stores\.csv' --target prod --dry-run --report-html review\.html$/,
    ],
    ['refused', report('refused', 4, 'LEADING_ZEROS_LOST'), '🛑', /--dry-run/],
    ['refused', report('refused', 4, 'LOCK_HELD'), '🛑', /^upload store-cards '\/data\/my stores\.csv' -y --json --target prod$/],
    ['failed', report('rejected', 5, 'REJECTED'), '❌', /^upload history store-cards --target prod$/],
    ['failed', report('rejected', 5, 'UNAUTHORIZED'), '❌', /^upload config --target prod$/],
    ['failed', report('unreachable', 6, 'UNREACHABLE'), '❌', /^upload store-cards .* -y --json --target prod$/],
    ['failed', report('invalid', 3, 'INVALID_RECORDS'), '❌', /--dry-run --report-html review\.html$/],
    ['unknown', report('unknown', 6, 'OUTCOME_UNKNOWN'), '❓', /^upload store-cards .* -y --json --target prod$/],
    ['unknown', report('unverified', 7, 'ANSWER_UNCONFIRMED'), '❓', /^upload store-cards/],
  ];
  it.each(cases)('%s: its mark, target, host, counts, upload number and next command', (verdict, r, mark, next) => {
    const n = notification(r, facts);
    expect(n.verdict).toBe(verdict);
    expect(n.headline.startsWith(`${mark} prod (api.example.com): store cards full upload`)).toBe(true);
    expect(n.next.command).toMatch(next);
    // The notification flags (a webhook address, the format) are never repeated.
    expect(n.next.command).not.toMatch(/--notify|\*\*\*/);
    expect(n.text).toContain(`next: ${n.next.command}`);
    if (r.generation !== null) expect(n.text).toContain(`upload #${r.generation}`);
    expect(JSON.stringify(n)).not.toContain('anna@example.com');
  });

  it('never suggests raising --max-removals when the keys lost their leading zeros', () => {
    const n = notification(report('refused', 4, 'LEADING_ZEROS_LOST'), facts);
    expect(n.next.command).not.toContain('--max-removals');
    expect(n.next.why).toMatch(/never raise --max-removals/);
  });

  it('a removal by keys that look like emails does not repeat them in the next command', () => {
    const n = notification(report('refused', 4, 'TOO_MANY_REMOVALS', { kind: 'team-members' }), {
      ...facts,
      command: 'remove',
      operation: 'remove',
      argv: ['remove', 'team-members', 'anna@example.com', '--target', 'prod'],
    });
    expect(n.next.command).toBe('upload history team-members --target prod');
  });
});

describe('keys in a notification', () => {
  it('are listed only when every one looks like a code', () => {
    expect(['E000123', 'STORE-0042', '100', 'ab12'].every(looksLikeCode)).toBe(true);
    expect(['anna@example.com', 'anna.schmidt', 'Anna Schmidt', 'Müller', 'schmidt7', 'ANNA'].some(looksLikeCode)).toBe(false);
    expect(listableKeys(['E1', 'E2'])).toEqual({ count: 2, keys: ['E1', 'E2'], withheld: null });
    expect(listableKeys(['E1', 'anna@example.com'])).toEqual({ count: 2, keys: [], withheld: 'personal' });
    expect(listableKeys(Array.from({ length: 60 }, (_, i) => `E${i}`)).keys).toHaveLength(50);
  });

  it('the same rule holds in every format', () => {
    const emails = Array.from({ length: 40 }, (_, i) => `person${i}@example.com`);
    const n = notification(report('uploaded', 9, null, { kind: 'team-members', heldRemovals: emails }), facts);
    expect(n.heldRemovals).toEqual({ count: 40, keys: [], withheld: 'personal' });
    for (const format of ['json', 'slack', 'teams'] as const) {
      const body = JSON.stringify(formatNotification(format, n));
      expect(body).not.toContain('@example.com');
      expect(body).toMatch(/40/);
    }
  });
});

describe('the chat formats', () => {
  const n = notification(report('uploaded', 9, null, { heldRemovals: ['0001', '0002'] }), {
    ...facts,
    // The next command (a release, for held removals) carries the store's path as typed.
    argv: ['store-cards', '/data/<b>&_x_.csv', '--state', '/data/<b>&_x_.state'],
  });

  it('Slack: text plus blocks, its markup characters escaped', () => {
    const body = formatNotification('slack', n) as { text: string; blocks: { type: string; text?: { text: string }; fields?: { text: string }[] }[] };
    expect(body.text.startsWith('⚠️ prod (api.example.com): store cards full upload succeeded, 2 removals held back (exit 9)')).toBe(true);
    expect(body.blocks.map((b) => b.type)).toEqual(['section', 'section', 'section', 'context']);
    const all = JSON.stringify(body);
    expect(all).not.toMatch(/<b>/);
    expect(all).toContain('&lt;b&gt;&amp;');
    expect(body.blocks[1]!.fields!.map((f) => f.text)).toContain('*Held back*\n2: 0001, 0002');
    expect(body.blocks[2]!.text!.text).toMatch(/^\*Next:\* `upload release store-cards --target prod --state '\/data\/&lt;b&gt;&amp;_x_\.state' --dry-run`/);
  });

  it('Teams: a message with one Adaptive Card, its Markdown escaped', () => {
    const body = formatNotification('teams', n) as { type: string; attachments: { contentType: string; content: Record<string, any> }[] };
    expect(body.type).toBe('message');
    expect(body.attachments).toHaveLength(1);
    const card = body.attachments[0]!;
    expect(card.contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(card.content).toMatchObject({ type: 'AdaptiveCard', version: '1.4' });
    const [head, factSet, , command] = card.content.body as Record<string, any>[];
    expect(head).toMatchObject({ type: 'TextBlock', color: 'Warning', weight: 'Bolder' });
    expect(factSet!.facts).toContainEqual({ title: 'Service', value: 'api.example.com' });
    expect(factSet!.facts).toContainEqual({ title: 'Upload', value: '#12' });
    expect(command!.text).toContain('\\<b\\>&\\_x\\_.state');
  });
});

describe('commands that only read or copy the state', () => {
  it('say what they were, and run again as the next step', () => {
    const r = report('usage-error', 2, 'STATE_UNREACHABLE', { kind: 'team-members', diff: null });
    const n = notification(r, { ...facts, command: 'export', operation: 'export', argv: ['export', 'team-members', '--output', 'x.csv', '--notify', '***'] });
    expect(n.headline).toBe('❌ prod (api.example.com): team members export failed (exit 2, STATE_UNREACHABLE)');
    expect(n.next.command).toBe('upload export team-members --output x.csv');
  });
});
