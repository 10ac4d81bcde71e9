// Team-member files of any size for the safety tests: E0001…, one per line.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const id = (n: number) => `E${String(n).padStart(4, '0')}`;

/** A team-members CSV with the given member numbers; `renamed` members get another name. */
export function membersCsv(numbers: readonly number[], renamed: readonly number[] = []): string {
  const rows = numbers.map((n) => `${id(n)},m${n}@example.com,${renamed.includes(n) ? 'Renamed' : 'Member'} ${n},3,STORE-001`);
  return ['employeeID,email,name,roleCode,parentKey', ...rows].join('\n') + '\n';
}

export const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

export function writeMembers(dir: string, name: string, numbers: readonly number[], renamed: readonly number[] = []): string {
  const path = join(dir, name);
  writeFileSync(path, membersCsv(numbers, renamed));
  return path;
}
