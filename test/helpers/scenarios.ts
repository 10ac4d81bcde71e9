// Fixture scenarios run through the real CLI against a real sandbox of their own: a file must store
// exactly its wire JSON, or stop with exactly its issues and send nothing (fixtures/, by scenario).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, runCli } from './cli.js';
import { sandbox } from './sandbox.js';

export const FIXTURES = dirname(fixture('store-cards.csv'));
const PATHS = { 'store-cards': '/integrations/storeCards', 'team-members': '/integrations/teamMembers' } as const;
export type Kind = keyof typeof PATHS;

/** A fixture's JSON (wire records or issues). */
export const json = (name: string): unknown => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'));

/**
 * `upload KIND FILE --yes --no-baseline` for a file of the fixtures folder, with --json unless `human`;
 * what the sandbox then holds. A --json run names the fixture by its full path and runs in-process; a
 * human run runs in the fixtures folder, so its messages name the file as a user there types it.
 */
export async function upload(kind: Kind, file: string, args: readonly string[] = [], human = false) {
  const sb = await sandbox();
  try {
    const run = human
      ? await runCli([kind, file, '--yes', '--no-baseline', '--state', sb.stateDir, ...args], { env: sb.env, cwd: FIXTURES })
      : await runCli([kind, join(FIXTURES, file), '--yes', '--no-baseline', '--json', '--state', sb.stateDir, ...args], { env: sb.env });
    return { run, stored: await sb.stored(PATHS[kind]) };
  } finally {
    await sb.stop();
  }
}

export interface Upload {
  readonly kind: Kind;
  readonly file: string;
  readonly wire: string;
  readonly args?: string[];
}
export interface Refusal {
  readonly kind: Kind;
  readonly file: string;
  readonly issues: string;
}

/** Each file uploads, with no issue, exactly its wire JSON. */
export function uploadsExactly(scenarios: readonly Upload[]): void {
  describe.concurrent('each scenario uploads exactly its wire JSON', () => {
    it.each(scenarios)('$file $args', async ({ kind, file, args, wire }) => {
      const { run: r, stored } = await upload(kind, file, args);
      expect(r.code, r.stderr).toBe(0);
      expect(r.json().issues).toEqual([]);
      expect(stored).toEqual(json(wire));
    });
  });
}

/** Each file stops with exit 3 and exactly its issues, and nothing is sent. */
export function refusesExactly(title: string, scenarios: readonly Refusal[]): void {
  describe.concurrent(title, () => {
    it.each(scenarios)('$file', async ({ kind, file, issues }) => {
      const { run: r, stored } = await upload(kind, file);
      expect(r.code, r.stderr).toBe(3);
      expect(r.json().issues).toEqual(json(issues));
      expect(stored).toEqual([]);
    });
  });
}
