// Choosing a target and laying its settings under the command line's.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/config/settings.js';
import { chooseTarget, type ChosenTarget } from '../../src/config/target.js';
import { redactUrl } from '../../src/config/show.js';

const loaded = {
  path: '/etc/upload/upload.config.json',
  config: {
    defaultTarget: 'staging',
    targets: {
      staging: {
        baseUrl: 'https://staging.example.com',
        state: 'state/staging',
        tokenFile: 'secrets/token',
        map: { 'store-cards': 'maps/stores.json', 'team-members': { employeeID: 'Personalnummer' } },
        guards: { maxRemovals: '25%', maxChanges: 40 },
      },
      production: { baseUrl: 'https://example.com', state: 'postgres://u:pw@db/s', protected: true },
    },
  },
};
const chosen = (name: 'staging' | 'production'): ChosenTarget => ({ name, target: loaded.config.targets[name], how: '--target', configPath: loaded.path });
const none = () => false;
/** What each setting's value is, for a run with these flags given on the command line. */
const values = (
  target: ChosenTarget | undefined,
  kind: 'store-cards' | 'team-members',
  given: (flag: string) => boolean,
  flags: Record<string, unknown> = {},
  env = {},
) => Object.fromEntries(Object.entries(resolveSettings({ flags, given, target, kind, env })).map(([k, s]) => [k, s.value]));
const sources = (target: ChosenTarget | undefined, given: (flag: string) => boolean, flags: Record<string, unknown> = {}, env = {}) =>
  Object.fromEntries(Object.entries(resolveSettings({ flags, given, target, kind: 'store-cards', env })).map(([k, s]) => [k, s.from]));

describe('a target', () => {
  it('supplies its settings, paths relative to the config file', () => {
    expect(values(chosen('staging'), 'store-cards', none)).toMatchObject({
      baseUrl: 'https://staging.example.com',
      state: '/etc/upload/state/staging',
      tokenEnv: 'UPLOAD_TOKEN',
      tokenFile: '/etc/upload/secrets/token',
      map: '/etc/upload/maps/stores.json',
      maxRemovals: '25%',
      maxChanges: '40',
      maxEmptied: '5%',
    });
    expect(sources(chosen('staging'), none)).toMatchObject({
      baseUrl: 'target staging',
      tokenEnv: 'default',
      maxChanges: 'target staging',
      maxEmptied: 'default',
    });
    expect(values(chosen('staging'), 'team-members', none).map).toBe('{"employeeID":"Personalnummer"}');
    expect(values(chosen('production'), 'store-cards', none).state).toBe('postgres://u:pw@db/s');
  });

  it('yields to every flag the command line gave; a token flag replaces its token source whole', () => {
    const flags = { baseUrl: 'https://other.example.com', tokenEnv: 'MY_TOKEN', maxRemovals: '3', stateDir: 'here' };
    const given = (flag: string) => flag in flags;
    expect(values(chosen('staging'), 'store-cards', given, flags)).toMatchObject({
      baseUrl: 'https://other.example.com',
      tokenEnv: 'MY_TOKEN',
      tokenFile: null,
      maxRemovals: '3',
      state: resolve('here'),
      map: '/etc/upload/maps/stores.json',
      maxChanges: '40',
    });
    expect(sources(chosen('staging'), given, flags)).toMatchObject({ baseUrl: '--base-url', tokenFile: 'default', state: '--state-dir', token: '--token-env' });
  });

  it('puts a chosen target above the environment, and the environment above the default', () => {
    const env = {
      UPLOAD_BASE_URL: 'https://env.example.com',
      UPLOAD_STATE: 'postgres://e/s',
      UPLOAD_NOTIFY: ' https://a.example.com/1  https://b.example.com/2 ',
    };
    expect(sources(chosen('staging'), none, {}, env)).toMatchObject({ baseUrl: 'target staging', state: 'target staging', notify: 'UPLOAD_NOTIFY' });
    expect(values(undefined, 'store-cards', none, {}, env)).toMatchObject({
      baseUrl: 'https://env.example.com',
      notify: ['https://a.example.com/1', 'https://b.example.com/2'],
    });
    expect(sources(undefined, none, {}, { ...env, UPLOAD_BASE_URL: '' })).toMatchObject({ baseUrl: 'default', state: 'UPLOAD_STATE', notifyOn: 'default' });
    expect(() => resolveSettings({ flags: { state: 'a', stateDir: 'b' }, given: () => true, target: undefined, kind: undefined, env: {} })).toThrow(
      expect.objectContaining({ code: 'BAD_FLAG' }),
    );
  });

  it('is chosen by --target, UPLOAD_TARGET or defaultTarget; a protected one only by --target', () => {
    expect(chooseTarget(loaded, undefined, {})?.how).toBe('defaultTarget');
    expect(chooseTarget(loaded, undefined, { UPLOAD_TARGET: 'staging' })?.how).toBe('UPLOAD_TARGET');
    expect(chooseTarget(loaded, 'production', {})?.name).toBe('production');
    expect(() => chooseTarget(loaded, undefined, { UPLOAD_TARGET: 'production' })).toThrow(expect.objectContaining({ code: 'PROTECTED_TARGET' }));
    expect(chooseTarget(loaded, undefined, { UPLOAD_TARGET: 'production' }, { showOnly: true })?.name).toBe('production');
    expect(() => chooseTarget(loaded, 'prod', {})).toThrow(expect.objectContaining({ code: 'UNKNOWN_TARGET' }));
    expect(() => chooseTarget(loaded, '__proto__', {})).toThrow(expect.objectContaining({ code: 'UNKNOWN_TARGET' }));
    expect(chooseTarget(undefined, undefined, {})).toBeUndefined();
  });
});

describe('redaction in upload config', () => {
  it('shows a webhook by its host and a database password as ***', () => {
    expect(redactUrl('https://hooks.slack.com/services/T1/B2/secret')).toBe('https://hooks.slack.com/***');
    expect(redactUrl('postgres://u:pw@db/s')).toBe('postgres://u:***@db/s');
    expect(redactUrl('not a url')).toBe('***');
  });
});
