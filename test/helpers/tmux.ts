// A run in a real terminal, watched as a person sees it: tmux starts it in a pane of 120 × 40 on a
// server of its own, keys are typed with send-keys, and the screen tmux renders is read back.
import { execFileSync } from 'node:child_process';
import { BIN } from './cli.js';
import { HANG_MS } from './hang.js';

const servers: string[] = [];
/** Never reset: a new server never takes the name of one still shutting down (one worker runs many files). */
let started = 0;

/** Ends every tmux server a test started (call it in afterEach). */
export function closeTerminals(): void {
  for (const socket of servers.splice(0)) execFileSync('tmux', ['-L', socket, 'kill-server'], { stdio: 'ignore' });
}

const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;

export interface Terminal {
  /** The screen as rendered now, wrapped lines joined. */
  screen(): string;
  /** The same, with the escape sequences of its colours and attributes (tmux's -e). */
  screenWithStyles(): string;
  /** Types `keys` and Enter. */
  type(keys: string): void;
  /** Presses one key, in tmux's names (C-c). */
  press(key: string): void;
  /** The screen once `seen` matches it; the bound only catches a hang (./hang.ts). */
  until(seen: RegExp): Promise<string>;
}

/**
 * Runs the CLI with `args` and `env` in a new terminal; `shell` (if given) is a shell command whose
 * output is piped into it. The pane shows `exit N` when the run ends.
 */
export function inTerminal(args: readonly string[], env: Record<string, string>, shell?: string): Terminal {
  const socket = `su-test-${process.pid}-${started++}`;
  servers.push(socket);
  const tmux = (...a: string[]) => execFileSync('tmux', ['-L', socket, ...a], { encoding: 'utf8' });
  const cli = ['env', ...Object.entries({ CI: '', ...env }).map(([k, v]) => `${k}=${v}`), process.execPath, BIN, ...args].map(quote).join(' ');
  tmux('new-session', '-d', '-x', '120', '-y', '40', `${shell ? `${shell} | ` : ''}${cli}; echo "exit $?"; sleep 60`);
  const screen = () => tmux('capture-pane', '-p', '-J');
  return {
    screen,
    screenWithStyles: () => tmux('capture-pane', '-p', '-J', '-e'),
    type(keys) {
      tmux('send-keys', '-l', keys);
      tmux('send-keys', 'Enter');
    },
    press(key) {
      tmux('send-keys', key);
    },
    async until(seen) {
      for (const started = Date.now(); Date.now() - started < HANG_MS; await new Promise((r) => setTimeout(r, 100))) {
        const now = screen();
        if (seen.test(now)) return now;
      }
      throw new Error(`never on screen: ${seen}\n${screen()}`);
    },
  };
}
