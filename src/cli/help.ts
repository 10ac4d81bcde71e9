// --help, written from the command files and the options table without reading the command line (the start-up
// of `upload --help` is a bench case). A command's help fits in 80 lines: the options people use daily
// first, in full; the rest under headings — in full too when it all fits, else one line of names per
// heading, with `--help-all` showing every option with its words.
import type { CommandSpec } from './command.js';
import { FLAGS, type FlagName, type Spec } from './flags.js';
import { WIDTH, wrap } from './program-help.js';

/** The most a command's --help shows: one screen of a terminal's scrollback a person reads. */
export const HELP_LINES = 80;

/** Where each option is listed; an option in no section is a daily one, listed first. */
const SECTIONS: readonly [string, readonly FlagName[]][] = [
  [
    'Reading the file',
    [
      'format',
      'sheet',
      'headerRow',
      'hiddenRows',
      'delimiter',
      'encoding',
      'ignoreColumn',
      'timeFormat',
      'splitHours',
      'hoursAsOf',
      'storeCards',
      'baseline',
      'noBaseline',
    ],
  ],
  ['Safety guards', ['maxChanges', 'maxEmptied', 'allowEmpty']],
  ['Files to write', ['errorsCsv', 'payloadOut', 'diffOut', 'planOut', 'reportHtml']],
  ['Service and token', ['tokenEnv', 'tokenFile', 'retries', 'timeout']],
  ['State and config', ['state', 'keep', 'config']],
  ['Output and notifications', ['detailedExitcode', 'noColor', 'notify', 'notifyOn', 'notifyFormat']],
];

const HELP_OPTION = { flags: '-h, --help', help: 'display help for command (--help-all: every option in full)' };

function term(spec: Spec): string {
  return spec.flags.startsWith('-') && !spec.flags.startsWith('--') ? spec.flags : `    ${spec.flags}`;
}

function words(spec: Spec): string {
  const extra = [spec.choices ? `choices: ${spec.choices.join(', ')}` : '', spec.default !== undefined ? `default: ${spec.default}` : ''].filter(Boolean);
  return extra.length ? `${spec.help} (${extra.join('; ')})` : spec.help;
}

function optionLines(specs: readonly Spec[]): string[] {
  const pad = Math.min(32, Math.max(...specs.map((s) => term(s).length))) + 2;
  return specs.flatMap((spec) => {
    const left = `  ${term(spec)}`.padEnd(pad + 2);
    const body = wrap(words(spec), WIDTH - pad - 2, pad + 2);
    return left.length > pad + 2 ? [left, ...body.map((l, i) => (i ? l : `${' '.repeat(pad + 2)}${l}`))] : [`${left}${body.join('\n')}`];
  });
}

const shown = (name: FlagName) => (FLAGS[name] as Spec).hidden !== true;

/** The help of one command: ≤ HELP_LINES lines unless `all` asks for every option in full. */
export function commandHelp(spec: CommandSpec, all: boolean): string {
  const flags = spec.flags.filter(shown);
  const sectioned = new Set(SECTIONS.flatMap(([, names]) => names));
  const daily = flags.filter((f) => !sectioned.has(f));
  const groups = SECTIONS.map(([title, names]) => [title, flags.filter((f) => names.includes(f))] as const).filter(([, names]) => names.length);
  const args = spec.usage.split(' ').slice(1).join(' ');
  const head = [`Usage: upload ${spec.usage.split(' ')[0]}${flags.length ? ' [options]' : ''}${args ? ` ${args}` : ''}`, ''];
  for (const paragraph of (spec.description ?? spec.summary).split('\n\n')) head.push(...wrap(paragraph, WIDTH, 0), '');
  const tail = ['Examples:', ...spec.examples.map((e) => `  ${e}`), ...(spec.helpAfter ? spec.helpAfter.split('\n') : [])];
  const options = ['Options:', ...optionLines([...daily.map((f) => FLAGS[f] as Spec), HELP_OPTION])];
  const full = groups.flatMap(([title, names]) => ['', `${title}:`, ...optionLines(names.map((f) => FLAGS[f] as Spec))]);
  const lines = [...head, ...options, ...full, '', ...tail];
  if (all || lines.length <= HELP_LINES) return `${lines.join('\n')}\n`;
  // Too long in full: one line of names per heading, the words behind --help-all.
  const brief = groups.flatMap(([title, names]) => wrap(`${title}: ${names.map((f) => /--[a-z-]+/.exec(FLAGS[f].flags)![0]).join(' ')}`, WIDTH, 4));
  return `${[...head, ...options, '', ...brief, '', `Every option with its words: upload ${spec.usage.split(' ')[0]} --help-all`, '', ...tail].join('\n')}\n`;
}
