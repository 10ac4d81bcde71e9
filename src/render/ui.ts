// What the engine may say to a person. The CLI provides a terminal implementation (colour, spinner);
// tests and the demo may provide their own. Nothing here writes to stdout.
import type { Style } from './human.js';

export interface Ui {
  readonly style: Style;
  /** A line of ordinary output (suppressed by --quiet and --json). */
  info(line: string): void;
  /** A line that matters even under --quiet: warnings, errors, the outcome. */
  notice(line: string): void;
  /** Live progress: a spinner on a terminal, an occasional plain line otherwise. */
  progress(text: string): void;
  /** Ends any live progress display. */
  done(): void;
  /**
   * Asks a yes/no question on the terminal; resolves false on anything but yes. With `typeToConfirm`
   * (a protected target's name), only that name typed exactly is a yes.
   */
  confirm(question: string, typeToConfirm?: string): Promise<boolean>;
}
