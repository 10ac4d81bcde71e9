// One function masks every secret in every output (src/send/secrets.ts): the token in its forms, the
// password of any URL, and the passwords a run was given wherever they appear without their URL.
import { describe, expect, it } from 'vitest';
import { Secrets } from '../../src/send/secrets.js';

describe('Secrets.redact', () => {
  it.each([
    ['postgres://app:pw12@db:5432/state', 'postgres://app:***@db:5432/state'],
    ['see https://proxy-user:p%40ss@proxy.internal:3128 now', 'see https://proxy-user:***@proxy.internal:3128 now'],
    ['{"next":"upload history --state postgres://u:PgSecret99@127.0.0.1/inj"}', '{"next":"upload history --state postgres://u:***@127.0.0.1/inj"}'],
    ['postgres://app:***@db/state', 'postgres://app:***@db/state'],
    ['no user here: https://example.com/a:b@c', 'no user here: https://example.com/a:b@c'],
    ['mailto:someone@example.com and a:b@c', 'mailto:someone@example.com and a:b@c'],
  ])('%s', (text, shown) => {
    expect(new Secrets().redact(text)).toBe(shown);
  });

  it('masks a password it was given in every form, also away from its URL', () => {
    const secrets = new Secrets();
    secrets.keepPasswordsIn(['--state', 'postgres://app:Pg%2FSecret%2399@db/state']);
    for (const text of ['Pg/Secret#99', 'Pg%2FSecret%2399', '"Pg/Secret#99"']) expect(secrets.redact(`password ${text} failed`)).not.toContain('Secret');
  });

  it('keeps PGPASSWORD, but not a password too short to mask everywhere', () => {
    const secrets = new Secrets();
    secrets.keepFromEnvironment({ PGPASSWORD: 'LongEnough1', UPLOAD_STATE: 'postgres://a:pw@h/d' });
    expect(secrets.redact('LongEnough1 and pw in pg_hba')).toBe('*** and pw in pg_hba');
  });

  it('reads a megabyte-long word without trying every start in it', () => {
    const word = 'x'.repeat(1_000_000);
    const text = `${word}://${word}:${word}`;
    expect(new Secrets().redact(text)).toBe(text);
  });
});
