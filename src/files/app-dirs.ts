// Where a program keeps its files by each system's rules (the rules of the env-paths package, written
// out here: two folders do not need a dependency):
//                 state (the default state store)                config (config.json)
//   Linux, BSD    $XDG_STATE_HOME/X, else ~/.local/state/X        $XDG_CONFIG_HOME/X, else ~/.config/X
//   macOS         ~/Library/Application Support/X                ~/Library/Preferences/X
//   Windows       %LOCALAPPDATA%\X\Data                          %APPDATA%\X\Config
// An XDG variable set to an absolute path wins on every system: whoever sets it means it. The XDG spec
// says a relative one is invalid and must be ignored. Pure: the environment and home are given.
import { homedir } from 'node:os';
import { posix, win32 } from 'node:path';

export const APP = 'scheduling-upload';

interface Where {
  readonly env: NodeJS.ProcessEnv;
  readonly platform: NodeJS.Platform;
  readonly home: string;
}

const here = (env: NodeJS.ProcessEnv, platform: NodeJS.Platform, home?: string): Where => ({
  env,
  platform,
  home: home ?? ((platform === 'win32' ? env.USERPROFILE : env.HOME) || homedir()),
});

/** The folder the directory state store defaults to. */
export function stateHome(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home?: string): string {
  return appDir(here(env, platform, home), 'XDG_STATE_HOME', {
    linux: ['.local', 'state'],
    darwin: ['Library', 'Application Support'],
    windows: ['LOCALAPPDATA', ['AppData', 'Local'], 'Data'],
  });
}

/** The folder of the tool's configuration file (config.json). */
export function configDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home?: string): string {
  return appDir(here(env, platform, home), 'XDG_CONFIG_HOME', {
    linux: ['.config'],
    darwin: ['Library', 'Preferences'],
    windows: ['APPDATA', ['AppData', 'Roaming'], 'Config'],
  });
}

interface Rules {
  /** Under the home folder. */
  readonly linux: readonly string[];
  readonly darwin: readonly string[];
  /** The variable that names the base folder, its usual place under the home folder, and a subfolder. */
  readonly windows: readonly [string, readonly string[], string];
}

function appDir({ env, platform, home }: Where, xdgName: string, rules: Rules): string {
  const path = platform === 'win32' ? win32 : posix;
  const xdg = env[xdgName];
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, APP);
  if (platform === 'darwin') return path.join(home, ...rules.darwin, APP);
  if (platform === 'win32') {
    const [variable, usual, sub] = rules.windows;
    const base = env[variable];
    return path.join(base && path.isAbsolute(base) ? base : path.join(home, ...usual), APP, sub);
  }
  return path.join(home, ...rules.linux, APP);
}
