// Runs one child process and measures it: wall time (here), CPU time and peak RSS (GNU time when
// installed, else the child's /proc VmHWM polled until it exits — Linux only, else unknown).
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

const GNU_TIME = '/usr/bin/time';
export const hasGnuTime = (() => {
  const r = spawnSync(GNU_TIME, ['-f', '%M', 'true'], { encoding: 'utf8' });
  return r.status === 0 && /^\d+\s*$/.test(r.stderr);
})();

export function installed(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).status === 0;
}

/** Peak RSS of a running process in MB (VmHWM), or undefined. */
export function peakRssOf(pid) {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

let serial = 0;

/**
 * Runs `command args` to completion. Resolves {wallMs, cpuMs, rssMB, code, stdout, stderr}.
 * `plain` skips the GNU time wrapper (for start-up timings, where its fork would be noise).
 */
export function run(command, args, { env = process.env, plain = false, stdout = 'pipe' } = {}) {
  const timeFile = join(tmpdir(), `bench-time-${process.pid}-${serial++}`);
  const wrapped = hasGnuTime && !plain;
  const [cmd, argv] = wrapped ? [GNU_TIME, ['-o', timeFile, '-f', '%U %S %M', command, ...args]] : [command, args];
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(cmd, argv, { env, stdio: ['ignore', stdout, 'pipe'] });
    const out = [];
    const err = [];
    child.stdout?.on('data', (b) => out.push(b));
    child.stderr.on('data', (b) => err.push(b));
    let polled;
    const poll = !wrapped && !plain ? setInterval(() => (polled = peakRssOf(child.pid) ?? polled), 20) : undefined;
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      clearInterval(poll);
      let cpuMs = null;
      let rssMB = polled ?? null;
      if (wrapped) {
        const [u, s, kb] = readFileSync(timeFile, 'utf8').trim().split(/\s+/).slice(-3).map(Number);
        rmSync(timeFile, { force: true });
        cpuMs = Math.round((u + s) * 1000);
        rssMB = Math.round(kb / 1024);
      }
      resolve({ wallMs: Math.round(wallMs), cpuMs, rssMB, code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
