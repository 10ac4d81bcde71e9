// A real upload run in-process as from a terminal, whose confirmation runs `meanwhile` first: the
// question stands open while the test does something (a colleague's upload, a lost lock, a server
// restarted), then it is answered yes.
import { Readable } from 'node:stream';
import type { RunIo } from '../../src/cli/io.js';
import type { Flags } from '../../src/cli/flags.js';
import { parseUploadOptions } from '../../src/commands/shared/options.js';
import { withTarget, type TargetedFlags } from '../../src/cli/targets.js';
import { runUpload } from '../../src/pipeline/upload.js';
import { outputFiles } from '../../src/render/output-files.js';
import type { RunResult } from '../../src/report/result.js';
import { Secrets } from '../../src/send/secrets.js';

export async function uploadWithQuestion(env: Record<string, string>, state: string, file: string, meanwhile: () => Promise<void> | void): Promise<RunResult> {
  const io = {
    env,
    stdin: Object.assign(Readable.from([]), { isTTY: true }),
    stderr: { isTTY: true },
    stdout: {},
    secrets: new Secrets(),
  } as unknown as RunIo;
  const options = await parseUploadOptions('team-members', file, await runFlags({ retries: '0', timeout: '10', state }, io), io);
  return runUpload(options, {
    env,
    stdin: () => io.stdin,
    emit: () => {},
    files: outputFiles,
    confirm: async () => {
      await meanwhile();
      return true;
    },
  });
}

/** Flags as the runner hands them to a command: the settings resolved (no config file) and laid under them. */
export async function runFlags(flags: Flags, io: RunIo): Promise<TargetedFlags> {
  const run = await withTarget(flags, io, { argv: [], given: (key) => key in flags }, 'team-members', { noTarget: true });
  return { ...run.flags, settings: run.settings };
}
