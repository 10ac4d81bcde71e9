// The address a saved plan names, read before the run starts, so that the run is the target at that
// address (protection follows the address: src/config/address.ts). Anything wrong with the file is
// left for the plan's own check, which names it.
import { readFileSync } from 'node:fs';

export function planAddress(path: string): string | undefined {
  try {
    const doc = JSON.parse(readFileSync(path, 'utf8')) as { baseUrl?: unknown };
    return typeof doc.baseUrl === 'string' ? doc.baseUrl : undefined;
  } catch {
    return undefined;
  }
}
