// The single executable's entry point (scripts/build-exe.mjs): what bin/upload.js does, without the
// top-level await that a CommonJS bundle, the only kind Node 22 and 24 run as an executable, cannot hold.
import { main } from './main.js';

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
  // As bin/upload.js: a signal after the run has ended does not replace its exit code.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => {});
});
