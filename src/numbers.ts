// Counts for people to read: 1234567 → "1,234,567", "3 records". toLocaleString('en-US') says the same, but its
// first call loads ICU's number formatting, about 12 ms: most of what a small dry run spends on
// output (docs/performance.md, "Start-up").

/** An integer with a comma every three digits, as toLocaleString('en-US') writes it. */
export function thousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** "1 record", "1,234 records": a count with its noun. */
export function plural(n: number, noun: string): string {
  return `${thousands(n)} ${noun}${n === 1 ? '' : 's'}`;
}
