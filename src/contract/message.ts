// The success message of docs/service-interface.md §4: "<count> store card(s) uploaded".
import type { KindInfo } from './kinds.js';

export function successMessage(info: KindInfo, count: number): string {
  return `${count} ${info.noun}(s) uploaded`;
}

/** The count in a success message, or undefined when the message is not one for this kind. */
export function parseSuccessCount(info: KindInfo, message: string): number | undefined {
  const m = /^(\d+) (.+)\(s\) uploaded$/.exec(message.trim());
  if (!m || m[2] !== info.noun) return undefined;
  const n = Number(m[1]);
  return Number.isSafeInteger(n) ? n : undefined;
}
