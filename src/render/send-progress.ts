// The send stage's events in words: live text for the spinner (or an occasional plain line), and a
// line that stays for each retry, since a cron log should show every passing fault.
import type { Ui } from './ui.js';
import type { SendEvent } from '../send/index.js';

export function mebibytes(bytes: number): string {
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

export function seconds(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

export function showSendEvent(ui: Ui, event: SendEvent, origin: string): void {
  const of = `attempt ${event.attempt} of ${event.attempts}`;
  switch (event.type) {
    case 'sending':
      ui.progress(`Sending to ${origin} (${of}): ${mebibytes(event.bytes)} of ${mebibytes(event.total)}`);
      return;
    case 'waiting':
      ui.progress(`Sent; waiting for the answer (${of}, up to ${seconds(event.answerMs)})`);
      return;
    case 'retry': {
      const why = event.retryAfter ? 'as its Retry-After asks' : 'backing off';
      ui.notice(ui.style.yellow(`warning: ${of}: ${event.reason}; trying again in ${seconds(event.delayMs)} (${why})`));
      ui.progress(`Waiting ${seconds(event.delayMs)}${event.retryAfter ? ' (Retry-After)' : ''} before attempt ${event.attempt + 1} of ${event.attempts}`);
    }
  }
}
