// The commands: one row each, in the order the program's --help lists them. A row says what --help
// shows (so the program's help loads no command) and how to load the command's file from
// src/commands/, only when it runs. Adding a command is adding its file there and its row here
// (test/unit/command-table.test.ts checks the table and the folder agree).
import type { CommandFile, CommandSpec } from './command.js';

/** What the program's --help shows of a command. */
export interface Listing {
  readonly name: string;
  /** The command with its arguments, in the syntax --help shows: `history <kind>`, `remove <kind> [keys...]`. */
  readonly usage: string;
  readonly summary: string;
}

interface Row extends Listing {
  readonly load: () => Promise<{ default: CommandFile }>;
}

const row = (usage: string, summary: string, load: Row['load']): Row => ({ name: usage.split(' ')[0]!, usage, summary, load });

// Literal imports, one per command: a bundler splits each off and a reader (or a tool) can follow them.
const TABLE: readonly Row[] = [
  row('store-cards <file>', 'upload the complete set of store cards', () => import('../commands/store-cards.js')),
  row('team-members <file>', 'upload the complete set of team members', () => import('../commands/team-members.js')),
  row('history <kind>', 'list the recorded uploads of store-cards or team-members, newest first', () => import('../commands/history.js')),
  row('restore <kind>', 'upload an earlier recorded set again (default: the one before the latest)', () => import('../commands/restore.js')),
  row('approve [plan]', 'approve a plan someone else made, for a target that needs approvals (four eyes)', () => import('../commands/approve.js')),
  row('apply [plan]', 'send exactly a plan saved by --dry-run --plan-out, if the service has not moved since', () => import('../commands/apply.js')),
  row('policy <action>', "show the policy the state store records for an address (show), or record the target's (set)", () => import('../commands/policy.js')),
  row('remove <kind> [keys...]', 'upload the last recorded set without some records: remove a leaver by key', () => import('../commands/remove.js')),
  row('release <kind>', 'remove exactly the records the latest upload held back (--hold-removals)', () => import('../commands/release.js')),
  row(
    'export <kind> [file]',
    'write the last recorded set of store-cards or team-members as CSV, xlsx or JSON, or store hours for listings',
    () => import('../commands/export.js'),
  ),
  row(
    'state [action] [kind]',
    'copy the state to another store (--to), or settle an upload sent but never confirmed (resolve)',
    () => import('../commands/state.js'),
  ),
  row('config', 'show the settings a run would use, and where each comes from (secrets redacted)', () => import('../commands/config.js')),
  row('sandbox', 'run the reference service on loopback', () => import('../commands/sandbox.js')),
  row('template <kind>', 'print a CSV template for store-cards or team-members', () => import('../commands/template.js')),
];

export const commandNames = (): readonly string[] => TABLE.map((r) => r.name);

export const isCommand = (name: string | undefined): name is string => name !== undefined && TABLE.some((r) => r.name === name);

/** Every command's listing, in the order the program's --help shows them; loads none of them. */
export const listCommands = (): readonly Listing[] => TABLE.map(({ name, usage, summary }) => ({ name, usage, summary }));

/** The command `name` (one of commandNames()): its file, loaded now, with its row. */
export async function loadCommand(name: string): Promise<CommandSpec> {
  const found = TABLE.find((r) => r.name === name);
  if (!found) throw new Error(`no command ${name}`);
  const { load, ...listing } = found;
  return { ...listing, ...(await load()).default };
}

/** Every command, in the order the program's --help lists them. */
export async function loadCommands(): Promise<[string, CommandSpec][]> {
  return Promise.all(TABLE.map(async (r) => [r.name, await loadCommand(r.name)] as [string, CommandSpec]));
}
