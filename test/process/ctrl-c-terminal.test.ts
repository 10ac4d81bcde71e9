// Ctrl-C as a person presses it: on a real terminal (tmux) while the spinner turns, and while a
// read waits on standard input for a producer that has not written yet. Either way the run ends at
// once as interrupted (exit 130), and nothing is sent or recorded.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { until } from '../helpers/spawn.js';
import { tempDir } from '../helpers/tmp.js';
import { closeTerminals, inTerminal } from '../helpers/tmux.js';
import { HANG_MS } from '../helpers/hang.js';

afterEach(() => closeTerminals());

describe('Ctrl-C', () => {
  it('on a terminal, while the spinner turns, interrupts the run', async () => {
    // A named pipe the test holds open: the run reads its first records and then waits, spinner on.
    const t = tempDir();
    const fifo = join(t.dir, 'staff.csv');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const term = inTerminal(['team-members', fifo, '--dry-run', '--state', join(t.dir, 'state')], {});
    const writer = createWriteStream(fifo);
    // The run, interrupted, may close its end before the producer ends its own: that end is then a
    // write to a pipe nobody reads (EPIPE), the producer's affair, not the run's.
    writer.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
    });
    writer.write('employeeID,email,name\nE1,a@example.com,A\n');
    await term.until(/Reading .*staff\.csv/);
    term.press('C-c');
    // A read from a named pipe ends when the pipe gives bytes or closes; the producer stops here.
    await new Promise((r) => setTimeout(r, 300));
    writer.end();
    const after = await term.until(/^exit \d+$/m);
    expect(after).toContain('interrupted (Ctrl-C) before the upload was sent');
    expect(after).toMatch(/^exit 130$/m);
  });

  it('while the read waits on standard input, ends the run, not waiting for the producer to write', async () => {
    const child = spawn(process.execPath, [BIN, 'team-members', '-', '--dry-run', '--state', join(tempDir().dir, 'state')], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.stdout.resume();
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    // The producer writes a header and a record, then nothing more, and never closes its end.
    child.stdin.write('employeeID,email,name\nE1,a@example.com,A\n');
    await until(() => stderr.includes('Reading stdin'));
    child.kill('SIGINT');
    // Were the read waited out, nothing would end it: the run is killed as hung and the code is null.
    const killer = setTimeout(() => child.kill('SIGKILL'), HANG_MS);
    expect(await closed).toBe(130);
    clearTimeout(killer);
    expect(stderr).toContain('interrupted (Ctrl-C) before the upload was sent');
  });
});
