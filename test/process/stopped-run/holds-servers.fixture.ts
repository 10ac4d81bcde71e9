// Not a test of the suite (the name does not end in .test.ts): the one file of the run that
// test/process/stopped-run.test.ts starts and then stops. It brings up what a test run holds — the
// run's PostgreSQL server, a sandbox, a scripted server, a child process, a temp folder — says so in
// the file SU_STOPPED_RUN_READY names, and waits to be stopped.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { it } from 'vitest';
import { freshDatabase } from '../../helpers/postgres.js';
import { sandbox } from '../../helpers/sandbox.js';
import { scriptedServer } from '../../helpers/scripted-server.js';
import { tempDir } from '../../helpers/tmp.js';

it('holds servers until the run is stopped', async () => {
  const database = await freshDatabase();
  const sb = await sandbox();
  const scripted = await scriptedServer([]);
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  const { dir } = tempDir();
  const ready = { root: process.env.SU_TESTS_TMP_ROOT, database, sandbox: sb.url, scripted: scripted.url, worker: process.pid, child: child.pid, dir };
  writeFileSync(process.env.SU_STOPPED_RUN_READY!, JSON.stringify(ready));
  await new Promise(() => {});
});
