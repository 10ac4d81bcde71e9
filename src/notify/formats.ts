// The three shapes a notification is posted in, all made from the one Notification value (so what may
// be said is decided once, in ./summary.ts): `json` (everything, for machines; Slack and Teams'
// legacy connectors show its `text`), `slack` (an incoming webhook's `text` plus Block Kit blocks) and
// `teams` (a Workflows webhook's message with one Adaptive Card). Every text a chat service renders as
// markup is escaped: a file path or a target name is never a link or a mention.
import type { Notification } from './summary.js';

import type { NotifyFormat } from './choices.js';

export type { NotifyFormat } from './choices.js';

export function formatNotification(format: NotifyFormat, n: Notification): unknown {
  switch (format) {
    case 'json':
      return n;
    case 'slack':
      return slack(n);
    case 'teams':
      return teams(n);
  }
}

/** The facts both chat formats show, as label and value. */
function facts(n: Notification): [string, string][] {
  const c = n.counts;
  const num = (x: number | null) => (x === null ? '?' : x.toLocaleString('en-US'));
  const held = n.heldRemovals;
  return [
    ['Target', n.target ?? '(none)'],
    ['Service', n.service ?? '(none)'],
    ['Kind', `${n.kind ?? n.command} (${n.operation})`],
    ['Records', num(c.records)],
    ['Changes', c.added === null ? 'no baseline' : `+${num(c.added)} −${num(c.removed)} ~${num(c.changed)}`],
    ...(c.issues ? ([['Issues', num(c.issues)]] as [string, string][]) : []),
    ...(held ? ([['Held back', heldText(held)]] as [string, string][]) : []),
    ['Upload', n.generation === null ? 'none recorded' : `#${n.generation}`],
    ['Exit', `${n.exitCode}${n.errorCode ? ` ${n.errorCode}` : ''}`],
    ['Ran on', `${n.host}, ${(n.durationMs / 1000).toFixed(1)} s`],
  ];
}

function heldText(held: NonNullable<Notification['heldRemovals']>): string {
  if (held.withheld) return `${held.count} (keys not listed: they look like emails or names)`;
  return `${held.count}: ${held.keys.join(', ')}${held.count > held.keys.length ? ', …' : ''}`;
}

/** Slack mrkdwn: &, < and > are the only characters it asks to escape. */
const slackEscape = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
/** Inside `code`, a backquote would end it. */
const slackCode = (s: string) => '`' + slackEscape(s).replaceAll('`', 'ˋ') + '`';

function slack(n: Notification): unknown {
  return {
    text: slackEscape(n.text),
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*${slackEscape(n.headline)}*` } },
      { type: 'section', fields: facts(n).map(([k, v]) => ({ type: 'mrkdwn', text: `*${k}*\n${slackEscape(v)}` })) },
      { type: 'section', text: { type: 'mrkdwn', text: `*Next:* ${slackCode(n.next.command)}\n${slackEscape(n.next.why)}` } },
      { type: 'context', elements: [{ type: 'mrkdwn', text: `scheduling-upload · ${slackEscape(n.time)}` }] },
    ],
  };
}

/** Teams renders a subset of Markdown in a TextBlock and a FactSet: its markup characters are escaped. */
const teamsEscape = (s: string) => s.replace(/[\\*_[\]<>`]/g, (c) => `\\${c}`);

const TEAMS_COLOR = { success: 'Good', 'held-removals': 'Warning', refused: 'Attention', failed: 'Attention', unknown: 'Warning' } as const;

function teams(n: Notification): unknown {
  return {
    type: 'message',
    summary: n.headline,
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          msteams: { width: 'Full' },
          body: [
            { type: 'TextBlock', text: teamsEscape(n.headline), weight: 'Bolder', size: 'Medium', wrap: true, color: TEAMS_COLOR[n.verdict] },
            { type: 'FactSet', facts: facts(n).map(([title, value]) => ({ title: teamsEscape(title), value: teamsEscape(value) })) },
            { type: 'TextBlock', text: 'Next', weight: 'Bolder', wrap: true },
            { type: 'TextBlock', text: teamsEscape(n.next.command), fontType: 'Monospace', wrap: true },
            { type: 'TextBlock', text: teamsEscape(n.next.why), isSubtle: true, wrap: true },
          ],
        },
      },
    ],
  };
}
