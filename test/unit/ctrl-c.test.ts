// Ctrl-C at the confirmation question reaches readline, which hands it on. It must reach the run's own
// handlers without a signal: on Windows a signal sent to oneself ends the process with no report.
import { afterEach, describe, expect, it } from 'vitest';
import { passOnCtrlC } from '../../src/cli/terminal.js';

describe('a Ctrl-C caught at the question', () => {
  const added: ((signal: NodeJS.Signals) => void)[] = [];
  afterEach(() => added.splice(0).forEach((l) => process.off('SIGINT', l)));

  it("reaches the run's SIGINT handlers as a call, and the process goes on", () => {
    const seen: NodeJS.Signals[] = [];
    const handler = (signal: NodeJS.Signals) => seen.push(signal);
    added.push(handler);
    process.on('SIGINT', handler);
    passOnCtrlC();
    expect(seen).toEqual(['SIGINT']);
    expect(process.exitCode ?? 0).toBe(0);
  });
});
