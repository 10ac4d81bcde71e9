// The program's --help: the commands (from the built list, ./table.ts), examples and exit codes. A file of
// its own so that `upload --help` (a bench case) loads neither the options table nor any command file.
import { EXIT_CODES } from './exit-codes.js';
import type { Listing } from './table.js';

export const WIDTH = 100;

/** Text wrapped to the width, each line after the first indented. */
export function wrap(text: string, width: number, indent: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.map((l, i) => (i ? `${' '.repeat(indent)}${l}` : l));
}

/** The program's help: its commands with their summaries, examples and exit codes. */
export function programHelp(commands: readonly Listing[]): string {
  const pad = Math.max(...commands.map((s) => s.usage.length)) + 4;
  const lines = [
    'Usage: upload [options] [command]',
    '',
    'Upload the complete set of store cards or team members to the scheduling service, safely.',
    '',
    'Options:',
    '  -V, --version'.padEnd(pad + 2) + 'print the version, with the Node it runs on',
    '  -h, --help'.padEnd(pad + 2) + 'display help for command',
    '',
    'Commands:',
    ...commands.flatMap((s) => wrap(s.summary, WIDTH - pad - 2, pad + 2).map((l, i) => (i ? l : `  ${s.usage}`.padEnd(pad + 2) + l))),
    '',
    'Examples:',
    '  $ upload team-members staff.csv --dry-run      validate and show what would change',
    '  $ upload store-cards stores.xlsx --yes         upload a workbook without a prompt',
    '  $ SANDBOX_TOKEN=dev upload sandbox --port 0    a local copy of the service to rehearse against',
    '  $ upload template team-members > staff.csv     a CSV with every column',
    ...EXIT_CODES.split('\n'),
    '',
    'Documentation: README.md and docs/ in the package.',
  ];
  return `${lines.join('\n')}\n`;
}
