// Confirmation: the engine with a scripted person at the terminal (the terminal itself is the only
// stand-in; the sandbox and the state directory are real), and the refusal without a terminal.
import { existsSync } from 'node:fs';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { settle } from '../../src/cli/main.js';
import type { RunIo } from '../../src/cli/io.js';
import { Secrets } from '../../src/send/secrets.js';
import { parseUploadOptions } from '../../src/commands/shared/options.js';
import { confirmQuestion } from '../../src/render/human.js';
import type { ConfirmRequest } from '../../src/pipeline/events.js';
import type { UploadReport } from '../../src/report/report.js';
import { runUpload } from '../../src/pipeline/upload.js';
import { assembleReport } from '../../src/report/assemble.js';
import { outputFiles } from '../../src/render/output-files.js';
import { auditLines, latestSnapshot, lockOf } from '../helpers/state.js';
import { runCli } from '../helpers/cli.js';
import { range, writeMembers } from '../helpers/members.js';
import { sandbox, type TestSandbox } from '../helpers/sandbox.js';
import { runFlags } from '../helpers/question.js';

let sb: TestSandbox | undefined;
afterEach(async () => {
  await sb?.stop();
  sb = undefined;
});

interface Person {
  questions: string[];
  confirm(request: ConfirmRequest): Promise<boolean>;
}

function person(answer: boolean): Person {
  const questions: string[] = [];
  return { confirm: async (request) => (questions.push(confirmQuestion(request)), answer), questions };
}

/** The engine as `upload team-members FILE` runs it on a terminal, with the person's answers scripted. */
async function upload(file: string, who: Person): Promise<UploadReport> {
  const env = sb!.env;
  const io = { env, stdin: Object.assign(Readable.from([]), { isTTY: true }), stderr: { isTTY: true }, stdout: {}, secrets: new Secrets() } as unknown as RunIo;
  const options = await parseUploadOptions(
    'team-members',
    file,
    await runFlags({ retries: '0', timeout: '10', stateDir: sb!.stateDir, noBaseline: true }, io),
    io,
  );
  const { facts, failure } = await runUpload(options, {
    env,
    stdin: () => io.stdin,
    emit: () => {},
    files: outputFiles,
    confirm: (request) => who.confirm(request),
  });
  return assembleReport(facts, failure === undefined ? { outcome: facts.done!, exitCode: 0, error: null } : settle(failure));
}

describe('confirmation on a terminal', () => {
  it('asks with the summary; "no" refuses and nothing is sent or recorded', async () => {
    sb = await sandbox();
    const ui = person(false);
    const file = writeMembers(sb.dir, 'a.csv', range(1, 1234));
    const report = await upload(file, ui);
    expect(ui.questions).toEqual([`Replace all team members at ${sb.url} with these 1,234 team members: no baseline to compare with. Upload?`]);
    expect(report).toMatchObject({ outcome: 'refused', exitCode: 4, error: { code: 'DECLINED' } });
    expect(await sb.stored('/integrations/teamMembers')).toEqual([]);
    expect(latestSnapshot(sb.stateDir, sb.url)).toBeUndefined();
    expect(auditLines(sb.stateDir, sb.url)).toEqual([]);
  });

  it('"yes" uploads, and the next question shows the change', async () => {
    sb = await sandbox();
    const ui = person(true);
    expect((await upload(writeMembers(sb.dir, 'a.csv', range(1, 20)), ui)).outcome).toBe('uploaded');
    expect((await upload(writeMembers(sb.dir, 'b.csv', range(2, 22), [5]), ui)).outcome).toBe('uploaded');
    expect(ui.questions[1]).toMatch(
      new RegExp(
        `^Replace all team members at ${sb.url} with these 21 team members: \\+2 −1 ~1 =18 against upload #1 of \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC by .+@.+, 20 team members\\. Upload\\?$`,
      ),
    );
    expect(await sb.stored('/integrations/teamMembers')).toHaveLength(21);
  });
  it('Ctrl-C at the question is an interruption (130), and the lock is released', async () => {
    sb = await sandbox();
    const ui = person(false);
    ui.confirm = async () => {
      throw Object.assign(new Error('Aborted with Ctrl+C'), { name: 'AbortError' });
    };
    const report = await upload(writeMembers(sb.dir, 'a.csv', range(1, 3)), ui);
    expect(report).toMatchObject({ outcome: 'interrupted', exitCode: 130 });
    expect(existsSync(lockOf(sb.stateDir, sb.url))).toBe(false);
    expect(await sb.stored('/integrations/teamMembers')).toEqual([]);
  });
});

describe('without a terminal', () => {
  it('requires --yes (exit 2), and sends nothing', async () => {
    sb = await sandbox();
    const r = await runCli(['team-members', writeMembers(sb.dir, 'a.csv', range(1, 3)), '--json', '--state', sb.stateDir], { env: sb.env });
    expect(r.code).toBe(2);
    expect(r.json().error).toMatchObject({ code: 'NO_CONFIRMATION', hint: expect.stringContaining('--yes') });
    expect(await sb.stored('/integrations/teamMembers')).toEqual([]);
  });
});
