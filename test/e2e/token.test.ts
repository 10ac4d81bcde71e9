// Where the token comes from, what is wrong with it, and that it never shows: not in stdout, stderr
// or any file of the state directory (the canary check in upload()), even when the service echoes it.
import { describe, expect, it } from 'vitest';
import { CANARY, upload } from '../helpers/canary.js';
import { serversForFile, type Step } from '../helpers/scripted-server.js';
import { tempDir } from '../helpers/tmp.js';

const { serve } = serversForFile();
const unauthorized: Step = { status: 401, body: { message: 'unauthorized', status: 401 } };

describe.concurrent('token sources', () => {
  it('--token-file PATH: sent as the bearer token; a 401 names the file', async () => {
    const file = tempDir().write('token', `${CANARY}\n`);
    const ok = await serve({ ok: true });
    const run = await upload(ok.url, ['--token-file', file], { env: { UPLOAD_TOKEN: undefined } });
    expect(run.code).toBe(0);
    expect(ok.requests[0]!.headers.authorization).toBe(`Bearer ${CANARY}`);

    const refusing = await serve(unauthorized);
    const refused = await upload(refusing.url, ['--token-file', file], { env: { UPLOAD_TOKEN: undefined } });
    expect(refused.code).toBe(5);
    expect(refused.json().error.message).toContain(`the token came from the file ${file}`);
  });

  it('--token-file -: read from standard input', async () => {
    const server = await serve({ ok: true });
    const run = await upload(server.url, ['--token-file', '-'], { env: { UPLOAD_TOKEN: undefined }, input: `${CANARY}\r\n` });
    expect(run.code).toBe(0);
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${CANARY}`);
  });

  it('--token-env NAME: read from that variable; a 401 names it', async () => {
    const server = await serve(unauthorized);
    const run = await upload(server.url, ['--token-env', 'SCHED_TOKEN'], { env: { UPLOAD_TOKEN: undefined, SCHED_TOKEN: CANARY } });
    expect(run.code).toBe(5);
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${CANARY}`);
    expect(run.stderr).toContain('the token came from the environment variable SCHED_TOKEN');
  });
});

describe.concurrent('unusable tokens are usage errors, before anything is sent', () => {
  // One code for a token that is there but unusable (BAD_TOKEN); the message says what is wrong with it.
  const cases: [string, string[], Record<string, string | undefined>, string, RegExp][] = [
    ['UPLOAD_TOKEN not set', [], { UPLOAD_TOKEN: undefined }, 'NO_TOKEN', /UPLOAD_TOKEN is not set/],
    ['UPLOAD_TOKEN blank', [], { UPLOAD_TOKEN: '   ' }, 'BAD_TOKEN', /variable UPLOAD_TOKEN is empty/],
    ['an empty token file', ['--token-file', tempDir().write('empty', '\n')], {}, 'BAD_TOKEN', /is empty/],
    ['a token file of two lines', ['--token-file', tempDir().write('two', `${CANARY}\nsecond-line\n`)], {}, 'BAD_TOKEN', /spans more than one line/],
    ['a token file that does not exist', ['--token-file', '/nonexistent/token'], {}, 'TOKEN_FILE_UNREADABLE', /\/nonexistent\/token/],
    ['a multi-line variable', [], { UPLOAD_TOKEN: `${CANARY}\nmore` }, 'BAD_TOKEN', /spans more than one line/],
  ];
  it.each(cases)('%s', async (_name, args, env, code, message) => {
    const server = await serve({ ok: true });
    const run = await upload(server.url, args, { env });
    expect(run.code).toBe(2);
    expect(run.json()).toMatchObject({ outcome: 'usage-error', exitCode: 2, error: { code, message: expect.stringMatching(message) } });
    expect(server.requests).toHaveLength(0);
  });
});

describe.concurrent('redaction', () => {
  it('a service that echoes the token back in a rejection: shown as ***', async () => {
    const server = await serve({ status: 400, body: { message: `token ${CANARY} may not upload team members`, status: 400 } });
    const run = await upload(server.url);
    expect(run.code).toBe(5);
    expect(run.json().response.message).toBe('token *** may not upload team members');
    expect(run.stderr).toContain('token *** may not upload');
  });

  it('and in the warning about a retry: shown as ***', async () => {
    const server = await serve({ status: 503, body: { message: `busy, ${CANARY}`, status: 503 } }, { ok: true });
    const run = await upload(server.url);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('the service answered 503 ("busy, ***")');
  });
});
