// The terminal edge: human output on stderr, colour and a spinner only where a person is looking.
import type { styleText } from 'node:util';
import type { Style } from '../render/human.js';
import type { Ui } from '../render/ui.js';

export interface TerminalOptions {
  readonly color: boolean;
  readonly quiet: boolean;
  readonly stderr: NodeJS.WriteStream;
  readonly stdin: NodeJS.ReadStream;
  readonly env: NodeJS.ProcessEnv;
  /** Aborted on Ctrl-C: a pending question is abandoned with the signal's reason. */
  readonly signal?: AbortSignal | undefined;
  /** Every line passes through it: the run's secrets never reach the terminal. */
  readonly redact: (text: string) => string;
}

/** Colour only on a terminal, never with NO_COLOR (any value) or --no-color. */
export function wantsColor(options: { color: boolean; stderr: NodeJS.WriteStream; env: NodeJS.ProcessEnv }): boolean {
  return options.color && options.stderr.isTTY === true && !('NO_COLOR' in options.env) && options.env.TERM !== 'dumb';
}

/**
 * Node's own styleText (stable since 22.13) does what chalk did here: five basic styles. The decision
 * to colour is wantsColor()'s, so styleText is told not to second-guess it from its own stream.
 */
export function makeStyle(color: boolean): Style {
  if (!color) return { bold: (s) => s, red: (s) => s, yellow: (s) => s, green: (s) => s, dim: (s) => s };
  // node:util is loaded only to colour: a run into a pipe or a log (most runs) never needs it.
  const { styleText: style } = process.getBuiltinModule('node:util');
  const paint = (format: Parameters<typeof styleText>[0]) => (s: string) => style(format, s, { validateStream: false });
  return { bold: paint('bold'), red: paint('red'), yellow: paint('yellow'), green: paint('green'), dim: paint('dim') };
}

/** A width the spinner can divide by when the terminal has none to say. */
export const FALLBACK_COLUMNS = 80;

/**
 * The terminal as the spinner sees it. A pseudo-terminal of 0×0 (what `script`, `ssh -tt` from a script
 * or `docker exec -t` give) says it has 0 columns, and the spinner then counts its own line as
 * infinitely many to clear: the run never ends. Such a terminal is given the usual 80.
 */
function sized(stream: NodeJS.WriteStream): NodeJS.WriteStream {
  return new Proxy(stream, {
    get(target, property) {
      if (property === 'columns') return target.columns > 0 ? target.columns : FALLBACK_COLUMNS;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
    // ora hooks `write` on its stream and on process.stderr while it spins, and puts back what it found
    // when it stops. Through this proxy both hooks would land on the one stderr, and the second, put
    // back last, would leave the first in place: every later write, each key echoed at the question
    // included, would start with a jump to column 1 and overwrite the question. process.stderr's own
    // hook is enough (this file's writes clear and redraw the spinner themselves), so the proxy's is
    // not passed on.
    set(target, property, value) {
      if (property === 'write') return true;
      return Reflect.set(target, property, value, target);
    },
  });
}

export async function terminalUi(options: TerminalOptions): Promise<Ui> {
  const { redact } = options;
  const color = wantsColor(options);
  const style = makeStyle(color);
  const live = options.stderr.isTTY === true && !options.quiet && options.env.TERM !== 'dumb' && !options.env.CI;
  const { default: ora } = live ? await import('ora') : { default: undefined };
  // discardStdin off: ora would put the terminal in raw mode to swallow keys while it spins, and its
  // discarder never starts reading them (stdin is not made to flow), so Ctrl-C was a byte nobody read
  // and never interrupted the run. In the terminal's own mode Ctrl-C is SIGINT, as the interrupt
  // handling expects (a key typed meanwhile just shows, which is harmless).
  const spinner = ora?.({ stream: sized(options.stderr), color: color ? 'cyan' : false, isEnabled: true, discardStdin: false });
  let lastPlain = 0;
  const write = (line: string) => {
    const spinning = spinner?.isSpinning;
    if (spinning) spinner.clear();
    options.stderr.write(`${redact(line)}\n`);
    if (spinning) spinner.render();
  };
  return {
    style,
    info: (line) => {
      if (!options.quiet) write(line);
    },
    notice: (line) => write(line),
    progress: (raw) => {
      if (options.quiet) return;
      const text = redact(raw);
      if (spinner) {
        spinner.text = text;
        if (!spinner.isSpinning) spinner.start();
        return;
      }
      // Off a terminal: a plain line, at most every few seconds, so logs stay readable.
      const now = Date.now();
      if (now - lastPlain >= 5000) {
        lastPlain = now;
        options.stderr.write(`${text}\n`);
      }
    },
    done: () => {
      spinner?.stop();
      lastPlain = 0;
    },
    confirm: async (question, typeToConfirm) => {
      spinner?.stop();
      // Loaded only to ask: most runs never do, and readline costs a few milliseconds of every start.
      const { createInterface } = await import('node:readline/promises');
      const rl = createInterface({ input: options.stdin, output: options.stderr });
      // Ctrl-C at the prompt reaches readline, not the process: pass it on as an interruption.
      const { signal } = options;
      rl.on('SIGINT', passOnCtrlC);
      try {
        const prompt =
          typeToConfirm === undefined
            ? `${redact(question)} [y/N] `
            : `${redact(question)}\nThis is the protected target '${typeToConfirm}'. Type its name to go ahead: `;
        const answer = await rl.question(prompt, signal ? { signal } : {});
        return typeToConfirm === undefined ? /^y(es)?$/i.test(answer.trim()) : answer.trim() === typeToConfirm;
      } catch (err) {
        if (signal?.aborted) throw signal.reason;
        throw err;
      } finally {
        rl.close();
      }
    },
  };
}

/**
 * Hands a Ctrl-C that readline caught to the run's own handlers (src/cli/upload.ts), which end the run
 * with its report. Calling them directly rather than signalling this process matters on Windows, where
 * process.kill(pid, 'SIGINT') ends the process at once, with no report and the lock left behind.
 * With no handler listening, the signal's default is what Ctrl-C would have done anyway.
 */
export function passOnCtrlC(): void {
  if (process.listenerCount('SIGINT') > 0) process.emit('SIGINT', 'SIGINT');
  else process.kill(process.pid, 'SIGINT');
}
