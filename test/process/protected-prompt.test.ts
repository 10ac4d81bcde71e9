// The confirmation on a real terminal, watched as a person sees it: the run is started in tmux, the
// answer is typed with send-keys, and the screen tmux renders is read back. The question stays whole
// and the answer shows after it; a protected target goes ahead only when its name is typed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { range, writeMembers } from '../helpers/members.js';
import { sandbox, TOKEN, type TestSandbox } from '../helpers/sandbox.js';
import { closeTerminals, inTerminal } from '../helpers/tmux.js';

let sb: TestSandbox | undefined;
afterEach(async () => {
  closeTerminals();
  await sb?.stop();
  sb = undefined;
});

describe('the question on a real terminal (tmux)', () => {
  it('keeps the question whole and shows the answer after it', async () => {
    sb = await sandbox();
    const file = writeMembers(sb.dir, 'staff.csv', range(1, 3));
    const run = inTerminal(['team-members', file, '--no-baseline', '--state', sb.stateDir], sb.env);
    await run.until(/Upload\? \[y\/N\] $/m);
    run.type('yes');
    const after = await run.until(/^exit \d+$/m);
    expect(after).toMatch(/^Replace all team members at http:\/\/127\.0\.0\.1:\d+ with these 3 team members: .*Upload\? \[y\/N\] yes$/m);
    expect(after).toContain('✓ 3 team member(s) uploaded');
    expect(after).toMatch(/^exit 0$/m);
    expect(await sb.stored('/integrations/teamMembers')).toHaveLength(3);
  });

  it('goes ahead on a protected target only when its name is typed', async () => {
    sb = await sandbox();
    const home = join(sb.dir, 'xdg');
    mkdirSync(join(home, 'scheduling-upload'), { recursive: true });
    const config = { targets: { production: { baseUrl: sb.url, state: join(sb.dir, 'state'), tokenEnv: 'PROD_TOKEN', protected: true } } };
    writeFileSync(join(home, 'scheduling-upload', 'config.json'), JSON.stringify(config));
    const env = { XDG_CONFIG_HOME: home, PROD_TOKEN: TOKEN };
    const args = ['team-members', writeMembers(sb.dir, 'staff.csv', range(1, 3)), '--no-baseline', '--target', 'production'];
    const question = /^This is the protected target 'production'\. Type its name to go ahead: $/m;

    const declined = inTerminal(args, env);
    await declined.until(question);
    declined.type('y');
    const no = await declined.until(/^exit \d+$/m);
    expect(no).toMatch(/^This is the protected target 'production'\. Type its name to go ahead: y$/m);
    expect(no).toContain('not confirmed; nothing was sent');
    expect(no).toMatch(/^exit 4$/m);
    expect(await sb.stored('/integrations/teamMembers')).toEqual([]);

    const typed = inTerminal(args, env);
    await typed.until(question);
    typed.type('production');
    const yes = await typed.until(/^exit \d+$/m);
    expect(yes).toMatch(/^This is the protected target 'production'\. Type its name to go ahead: production$/m);
    expect(yes).toMatch(/^exit 0$/m);
    expect(await sb.stored('/integrations/teamMembers')).toHaveLength(3);
  });
});
