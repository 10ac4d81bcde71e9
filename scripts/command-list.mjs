// The last step of `npm run build` (and of the tests' rebuild, test/setup/build.ts): the list of the
// commands with their usage, summary and place, written beside them as dist/commands/list.json, so
// that `upload --help` prints it without loading every command file (its start-up is a bench case:
// docs/performance.md). Adding a command is still adding its file: this list is made from the files.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const commands = join(import.meta.dirname, '..', 'dist', 'commands');
const names = readdirSync(commands)
  .filter((f) => /^[a-z][a-z-]*\.js$/.test(f))
  .map((f) => f.slice(0, -3))
  .sort();
const list = [];
for (const name of names) {
  const { default: spec } = await import(pathToFileURL(join(commands, `${name}.js`)).href);
  list.push({ name, usage: spec.usage, summary: spec.summary, order: spec.order });
}
writeFileSync(join(commands, 'list.json'), `${JSON.stringify(list, null, 2)}\n`);
