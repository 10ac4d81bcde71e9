// --time-format (or the mapping's "timeFormat"): how the file writes times where two readings are
// possible. Two questions, each answered at most once: `8.30` is 08:30 (clock) or 8.3 hours
// (decimal); `9-5` is 09:00-17:00 (12h) or runs to 05:00 next day (24h). `clock,12h` answers both.

export const TIME_FORMATS = ['clock', 'decimal', '12h', '24h'] as const;
export type TimeFormat = (typeof TIME_FORMATS)[number];
/** One format (`clock`) or one of each pair, comma-separated in TIME_FORMATS order (`clock,12h`). */
export type TimeFormats = string;

const PAIRS: readonly (readonly [TimeFormat, TimeFormat])[] = [
  ['clock', 'decimal'],
  ['12h', '24h'],
];

export const TIME_FORMAT_HELP =
  'clock: 8.30 is 08:30; decimal: 8.30 is 8.3 hours; 12h: 9-5 is 09:00-17:00; 24h: 9-5 runs to 05:00 next day; both questions: clock,12h';

/** The formats a value names, written in one order (two settings that say the same are equal), or why it names none. */
export function parseTimeFormats(value: unknown): TimeFormats | { error: string } {
  const words = typeof value === 'string' ? value.split(',').map((w) => w.trim().toLowerCase()) : [];
  const bad = words.find((w) => !(TIME_FORMATS as readonly string[]).includes(w));
  if (!words.length || bad !== undefined) return { error: `time format ${JSON.stringify(value)} is not clock, decimal, 12h or 24h` };
  const both = PAIRS.find(([a, b]) => words.includes(a) && words.includes(b));
  if (both) return { error: `time format ${JSON.stringify(value)} says both ${both[0]} and ${both[1]}` };
  return TIME_FORMATS.filter((f) => words.includes(f)).join(',');
}

/**
 * Whether the formats say `format`. `seen12h` and `seen24h` are what the file's other cells say
 * (./clock-evidence.ts), never written by the user.
 */
export function says(formats: TimeFormats | undefined, format: TimeFormat | 'seen12h' | 'seen24h'): boolean {
  return formats?.split(',').includes(format) ?? false;
}
