// The address a saved plan names, read before the run starts, so that the run is the target at that
// address (protection follows the address: src/config/address.ts). Anything wrong with the file is
// left for the plan's own check, which names it (NOT_A_FILE, PLAN_INVALID): here a FIFO is opened
// without waiting and never read, and a file far larger than a plan is not read at all.
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';

const MAX_PLAN_BYTES = 16 * 1024 * 1024;

export function planAddress(path: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > MAX_PLAN_BYTES) return undefined;
    const doc = JSON.parse(readFileSync(fd, 'utf8')) as { baseUrl?: unknown };
    return typeof doc.baseUrl === 'string' ? doc.baseUrl : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
