// The tool's version, from package.json: in --version, and in every generation and plan it writes.
// The single executable has no package.json beside it: its bundler writes the version in as a constant.
import { readFile } from 'node:fs/promises';

declare const __UPLOAD_VERSION__: string | undefined;

let cached: Promise<string> | undefined;

export function toolVersion(): Promise<string> {
  if (typeof __UPLOAD_VERSION__ === 'string') return Promise.resolve(__UPLOAD_VERSION__);
  cached ??= readFile(new URL('../package.json', import.meta.url), 'utf8').then((text) => (JSON.parse(text) as { version: string }).version);
  return cached;
}

/** What --version prints: a bug report needs the Node it ran on as much as the tool's own version. */
export async function versionLine(): Promise<string> {
  return `scheduling-upload ${await toolVersion()} (Node ${process.version}, ${process.platform}-${process.arch})`;
}
