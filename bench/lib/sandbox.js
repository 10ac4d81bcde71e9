// The sandbox as a child process (`upload sandbox`), as a user runs it, so its own peak memory can
// be read from /proc while uploads hit it.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { peakRssOf } from './measure.js';

export async function startSandbox({ bin, dataDir, maxBody }) {
  const token = randomBytes(12).toString('hex');
  const child = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '--data-dir', dataDir, '--max-body', String(maxBody)], {
    env: { ...process.env, SANDBOX_TOKEN: token },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const url = await new Promise((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (b) => {
      text += b;
      if (text.includes('\n')) resolve(text.split('\n')[0].trim());
    });
    child.on('exit', (code) => reject(new Error(`the sandbox exited with ${code} before listening`)));
  });
  return {
    url,
    token,
    /** Peak RSS of the sandbox so far, in MB. */
    peakMB: () => peakRssOf(child.pid) ?? null,
    /** A curl header file, so the token is not on a command line. */
    curlHeaders(path) {
      writeFileSync(path, `authorization: Bearer ${token}\ncontent-type: application/json\n`, { mode: 0o600 });
      return path;
    },
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
