// Choosing a target and laying its settings under the command line's.
import { describe, expect, it } from 'vitest';
import { chooseTarget, targetFlags, type ChosenTarget } from '../../src/config/target.js';
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

describe('a target', () => {
  it('supplies its settings, paths relative to the config file', () => {
    expect(targetFlags(chosen('staging'), 'store-cards', none)).toEqual({
      baseUrl: 'https://staging.example.com',
      state: '/etc/upload/state/staging',
      tokenFile: '/etc/upload/secrets/token',
      map: '/etc/upload/maps/stores.json',
      maxRemovals: '25%',
      maxChanges: '40',
    });
    expect(targetFlags(chosen('staging'), 'team-members', none).map).toBe('{"employeeID":"Personalnummer"}');
    expect(targetFlags(chosen('production'), 'store-cards', none).state).toBe('postgres://u:pw@db/s');
  });

  it('yields to every flag the command line gave; a token flag replaces its token source whole', () => {
    const given = (flag: string) => ['baseUrl', 'tokenEnv', 'maxRemovals', 'stateDir'].includes(flag);
    expect(targetFlags(chosen('staging'), 'store-cards', given)).toEqual({ map: '/etc/upload/maps/stores.json', maxChanges: '40' });
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
