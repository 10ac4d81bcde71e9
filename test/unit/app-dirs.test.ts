// The state and config folders by each system's rules, computed for every system from here.
import { describe, expect, it } from 'vitest';
import { configDir, stateHome } from '../../src/files/app-dirs.js';
import { resolveStateDir } from '../../src/state/paths.js';

const linuxHome = '/home/ann';
const macHome = '/Users/ann';
const winHome = 'C:\\Users\\ann';
const winEnv = { LOCALAPPDATA: 'C:\\Users\\ann\\AppData\\Local', APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' };

describe('the state folder', () => {
  it.each([
    ['linux', {}, linuxHome, '/home/ann/.local/state/scheduling-upload'],
    ['linux', { XDG_STATE_HOME: '/var/lib/ann' }, linuxHome, '/var/lib/ann/scheduling-upload'],
    ['linux', { XDG_STATE_HOME: 'relative/state' }, linuxHome, '/home/ann/.local/state/scheduling-upload'],
    ['freebsd', {}, linuxHome, '/home/ann/.local/state/scheduling-upload'],
    ['darwin', {}, macHome, '/Users/ann/Library/Application Support/scheduling-upload'],
    ['darwin', { XDG_STATE_HOME: '/Users/ann/.state' }, macHome, '/Users/ann/.state/scheduling-upload'],
    ['win32', winEnv, winHome, 'C:\\Users\\ann\\AppData\\Local\\scheduling-upload\\Data'],
    ['win32', {}, winHome, 'C:\\Users\\ann\\AppData\\Local\\scheduling-upload\\Data'],
  ] as const)('on %s with %j is %s', (platform, env, home, expected) => {
    expect(stateHome(env, platform, home)).toBe(expected);
  });

  it('takes the home folder from HOME, or USERPROFILE on Windows', () => {
    expect(stateHome({ HOME: '/home/bo' }, 'linux')).toBe('/home/bo/.local/state/scheduling-upload');
    expect(stateHome({ USERPROFILE: 'D:\\bo', HOME: '/c/bo' }, 'win32')).toBe('D:\\bo\\AppData\\Local\\scheduling-upload\\Data');
  });

  it('is what --state defaults to; a given --state wins', () => {
    expect(resolveStateDir(undefined, { HOME: '/home/bo' }, 'linux')).toBe('/home/bo/.local/state/scheduling-upload');
    expect(resolveStateDir('/srv/upload-state', { HOME: '/home/bo' }, 'linux')).toBe('/srv/upload-state');
  });
});

describe('the config folder', () => {
  it.each([
    ['linux', {}, linuxHome, '/home/ann/.config/scheduling-upload'],
    ['linux', { XDG_CONFIG_HOME: '/etc/xdg-ann' }, linuxHome, '/etc/xdg-ann/scheduling-upload'],
    ['darwin', {}, macHome, '/Users/ann/Library/Preferences/scheduling-upload'],
    ['win32', winEnv, winHome, 'C:\\Users\\ann\\AppData\\Roaming\\scheduling-upload\\Config'],
    ['win32', {}, winHome, 'C:\\Users\\ann\\AppData\\Roaming\\scheduling-upload\\Config'],
  ] as const)('on %s with %j is %s', (platform, env, home, expected) => {
    expect(configDir(env, platform, home)).toBe(expected);
  });
});
