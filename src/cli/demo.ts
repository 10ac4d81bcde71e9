// `npm run demo`: the main job end to end against the built-in sandbox, with nothing to set up.
// A sandbox starts in this process on a free loopback port; the uploads go through the CLI's own
// entry point, exactly as `upload … --yes` would run them; a truncated file is refused; then the
// stored sets are read back.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from './main.js';
import { startSandbox } from '../sandbox/server.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const token = randomBytes(18).toString('base64url');
const work = await mkdtemp(join(tmpdir(), 'scheduling-upload-demo-'));
const sandbox = await startSandbox({ token, dataDir: join(work, 'service'), log: (line) => process.stderr.write(`  [sandbox] ${line}\n`) });
const say = (line: string) => process.stderr.write(`\n${line}\n`);
let failed = 0;

try {
  say(`Sandbox running at ${sandbox.url} (data in ${join(work, 'service')})`);
  const env = { ...process.env, UPLOAD_TOKEN: token, UPLOAD_BASE_URL: sandbox.url };
  const io = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env };
  for (const [kind, file] of [
    ['store-cards', 'fixtures/store-cards.csv'],
    ['team-members', 'fixtures/team-members.csv'],
  ] as const) {
    say(`$ upload ${kind} ${file} --yes`);
    const code = await main([kind, join(root, file), '--yes', '--no-baseline', '--state-dir', join(work, 'state')], io);
    if (code !== 0) failed++;
    say(`(exit code ${code})`);
  }
  // The safety net: a truncated export (one team member missing of three) is refused, not uploaded.
  const truncated = join(work, 'team-members-truncated.csv');
  const lines = (await readFile(join(root, 'fixtures/team-members.csv'), 'utf8')).trimEnd().split('\n');
  await writeFile(truncated, `${lines.slice(0, -1).join('\n')}\n`);
  say(`$ upload team-members ${truncated} --yes    # the last row is missing`);
  const refused = await main(['team-members', truncated, '--yes', '--state-dir', join(work, 'state')], io);
  say(`(exit code ${refused}: refused by the removal guard, nothing was sent${refused === 4 ? '' : ' — UNEXPECTED'})`);
  if (refused !== 4) failed++;

  for (const path of ['/integrations/storeCards', '/integrations/teamMembers']) {
    const res = await fetch(`${sandbox.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    say(`The sandbox now stores at ${path}:`);
    process.stdout.write(`${JSON.stringify(await res.json(), null, 2)}\n`);
  }
} finally {
  await sandbox.close();
  await rm(work, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
