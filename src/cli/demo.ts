// `npm run demo`: the main job end to end against the built-in sandbox, with nothing to set up.
// A sandbox starts in this process on a free loopback port. The demo prints an environment and a list
// of command lines, and runs each line's own words through the CLI's entry point with that same
// environment: what is printed is what ran, so a line pasted into a shell (with the `export` line,
// `upload` being this checkout's bin/upload.js) does what the demo shows (test/process/demo.test.ts).
// With --keep-running the sandbox stays up after the last step, until Ctrl-C, to paste them into.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from './main.js';
import { startSandbox } from '../sandbox/server.js';

interface Step {
  readonly args: readonly string[];
  /** Shown after the line as a shell comment. */
  readonly note?: string;
  readonly expect: number;
  /** What the expected exit code means, shown with it. */
  readonly means: string;
}

/** A word as a POSIX shell reads it back unchanged: bare when nothing in it is special, else quoted. */
const shellWord = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`);

const keepRunning = process.argv.includes('--keep-running');
const root = fileURLToPath(new URL('../..', import.meta.url));
// The sample files as the person typing would name them: relative to where the demo was started.
const sample = (name: string) => relative(process.cwd(), join(root, 'fixtures', name)) || '.';
const token = `sandbox-${randomBytes(12).toString('base64url')}`;
const work = await mkdtemp(join(tmpdir(), 'scheduling-upload-demo-'));
const sandbox = await startSandbox({ token, dataDir: join(work, 'service'), log: (line) => process.stderr.write(`  [sandbox] ${line}\n`) });
const say = (line: string) => process.stderr.write(`\n${line}\n`);
let failed = 0;

try {
  // The safety net's input: the sample team members without their last row, as a truncated export is.
  const truncated = join(work, 'team-members-truncated.csv');
  const lines = (await readFile(join(root, 'fixtures/team-members.csv'), 'utf8')).trimEnd().split('\n');
  await writeFile(truncated, `${lines.slice(0, -1).join('\n')}\n`);

  // The token is a secret even here: the printed line reads it from a file only this user can read.
  const tokenFile = join(work, 'token');
  await writeFile(tokenFile, `${token}\n`, { mode: 0o600 });
  const env = { UPLOAD_BASE_URL: sandbox.url, UPLOAD_TOKEN: token, UPLOAD_STATE: join(work, 'state') };
  const shown = { ...env, UPLOAD_TOKEN: `"$(cat ${shellWord(tokenFile)})"` };
  const first = 'the first upload: nothing is recorded to compare with yet';
  const steps: Step[] = [
    { args: ['store-cards', sample('store-cards.csv'), '--yes', '--no-baseline'], note: first, expect: 0, means: 'uploaded' },
    { args: ['team-members', sample('team-members.csv'), '--yes', '--no-baseline'], note: first, expect: 0, means: 'uploaded' },
    { args: ['team-members', truncated, '--yes'], note: 'the last row is missing', expect: 4, means: 'refused by the removal guard, nothing was sent' },
  ];

  say(`Sandbox running at ${sandbox.url} (the service \`upload sandbox\` runs; data in ${join(work, 'service')})`);
  say(
    `Each $ line runs as printed in a shell with this environment (\`upload\` is this checkout's bin/upload.js;` +
      ` \`node bin/upload.js\` in its place works too)${keepRunning ? '' : '. To try them yourself: npm run demo -- --keep-running'}`,
  );
  say(
    `$ export ${Object.entries(shown)
      .map(([name, value]) => `${name}=${name === 'UPLOAD_TOKEN' ? value : shellWord(value)}`)
      .join(' ')}`,
  );
  const io = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: { ...process.env, ...env } };
  for (const step of steps) {
    say(`$ ${['upload', ...step.args].map(shellWord).join(' ')}${step.note ? `    # ${step.note}` : ''}`);
    const code = await main([...step.args], io);
    const expected = code === step.expect;
    if (!expected) failed++;
    say(`(exit code ${code}${expected ? `: ${step.means}` : ` — UNEXPECTED: ${step.expect} was expected`})`);
  }

  for (const path of ['/integrations/storeCards', '/integrations/teamMembers']) {
    const res = await fetch(`${sandbox.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    say(`The sandbox now stores (GET ${path}, a sandbox-only read):`);
    process.stdout.write(`${JSON.stringify(await res.json(), null, 2)}\n`);
  }

  if (keepRunning) {
    say(`The sandbox keeps running at ${sandbox.url}: paste the $ lines above into another shell. Ctrl-C stops it and removes ${work}.`);
    await new Promise((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
  }
} finally {
  await sandbox.close();
  await rm(work, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
