// The tool's version, from package.json: in --version, and in every generation and plan it writes.
import { readFile } from 'node:fs/promises';

let cached: Promise<string> | undefined;

export function toolVersion(): Promise<string> {
  cached ??= readFile(new URL('../package.json', import.meta.url), 'utf8').then((text) => (JSON.parse(text) as { version: string }).version);
  return cached;
}
