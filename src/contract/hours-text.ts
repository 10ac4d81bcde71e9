// A day of opening hours in words, `08:30–21:30` or `closed`: shared by the report and by the guards'
// messages, which sit below the presentation and so cannot borrow it from there.

export type DayHours = { readonly since: number; readonly to: number } | undefined;

/** 8.5 → "08:30"; 26 → "02:00" (the caller says "next day"). */
export function clock(hours: number): string {
  const minutes = Math.round(hours * 60);
  const h = Math.floor(minutes / 60) % 24;
  return `${String(h).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

export function formatDay(day: DayHours): string {
  if (!day) return 'closed';
  return `${clock(day.since)}–${clock(day.to)}${day.to > 24 ? ' (next day)' : ''}`;
}
