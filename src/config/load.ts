// Finding and reading the config file: --config FILE, else upload.config.json in the working
// directory, else the per-user one in the system's config folder (files/app-dirs.ts: on Linux
// $XDG_CONFIG_HOME/scheduling-upload/config.json, ~/.config by default). An error names the file, the
// key and the fix. Whichever it is, it must be a regular file (read without waiting, up to 1 MiB) and
// yours (trust.ts): a file someone else can write never chooses where the token goes.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { openSmallFile } from '../read/small-file.js';
import { configDir } from '../files/app-dirs.js';
import type { Config } from './schema.js';
import { checkTrusted, processTrust, type Trust } from './trust.js';

export interface LoadedConfig {
  readonly path: string;
  readonly config: Config;
}

export const LOCAL_CONFIG = 'upload.config.json';

/** The per-user config file, in the system's config folder (XDG on Linux, its own on macOS and Windows). */
export function userConfigPath(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), 'config.json');
}

/** Where the tool looks, in order, when --config is not given. */
export function configCandidates(env: NodeJS.ProcessEnv, cwd = process.cwd()): string[] {
  return [resolve(cwd, LOCAL_CONFIG), userConfigPath(env)];
}

const fix = 'fix the file, or pass another with --config FILE (see docs/targets.md)';

/** No config is anywhere near this large; a bigger file is the wrong file (or /dev/zero). */
export const MAX_CONFIG_BYTES = 1024 * 1024;

export async function loadConfig(
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
  cwd = process.cwd(),
  trust: Trust = processTrust(),
): Promise<LoadedConfig | undefined> {
  if (flag !== undefined) return read(resolve(cwd, flag), '--config', trust);
  // zod loads only when there is a file to check: most runs have none.
  for (const path of configCandidates(env, cwd)) if (existsSync(path)) return read(path, 'the config file', trust);
  return undefined;
}

async function read(path: string, label: string, trust: Trust): Promise<LoadedConfig | undefined> {
  const { configSchema, targetSchema } = await import('./schema.js');
  let text: string;
  try {
    const file = openSmallFile(path, label, MAX_CONFIG_BYTES, label === '--config' ? undefined : 'move it aside, or pass a regular file with --config FILE');
    checkTrusted(path, file.stats, trust);
    text = file.bytes.toString('utf8');
  } catch (err) {
    if (err instanceof UsageError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (label !== '--config' && code === 'ENOENT') return undefined;
    throw new UsageError('BAD_CONFIG', `${path}: cannot read the config file (${code ?? 'error'})`, 'check the path given to --config', { cause: err });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new UsageError('BAD_CONFIG', `${path}: the config file is not valid JSON (${(err as Error).message})`, fix, { cause: err });
  }
  const parsed = configSchema.safeParse(json);
  if (!parsed.success) {
    // A misspelt key explains the missing one it was meant to be: it is named first.
    const first = parsed.error.issues.find((i) => i.code === 'unrecognized_keys') ?? parsed.error.issues[0]!;
    const key = first.path.map(String).join('.') || '(the top level)';
    if (first.code === 'unrecognized_keys') {
      const known = Object.keys(first.path.length === 0 ? configSchema.shape : targetSchema.shape);
      const named = first.keys.map((k) => {
        const near = known.find((n) => n.toLowerCase() === k.toLowerCase().replace(/[-_]/g, ''));
        return `'${k}'${near ? ` (did you mean '${near}'?)` : ''}`;
      });
      throw new UsageError('BAD_CONFIG', `${path}: ${key}: unknown key ${named.join(', ')}`, `the keys are: ${known.join(', ')}; ${fix}`);
    }
    throw new UsageError('BAD_CONFIG', `${path}: ${key}: ${first.message}`, fix);
  }
  const config = parsed.data;
  if (config.defaultTarget !== undefined && !(config.defaultTarget in config.targets)) {
    throw new UsageError(
      'BAD_CONFIG',
      `${path}: defaultTarget: '${config.defaultTarget}' is not one of the targets (${Object.keys(config.targets).join(', ') || 'none'})`,
      fix,
    );
  }
  // Four eyes keeps plans and approvals in the target's store: a per-user default store would hide them from the approver.
  const unshared = Object.entries(config.targets).find(([, t]) => t.approvals !== undefined && t.state === undefined);
  if (unshared)
    throw new UsageError(
      'BAD_CONFIG',
      `${path}: targets.${unshared[0]}: "approvals" needs a "state" that planners, approvers and whoever applies share (its plans and approvals are kept there)`,
      `add "state": "postgres://…" (recommended) or a shared directory to the target; ${fix}`,
    );
  return { path, config };
}
