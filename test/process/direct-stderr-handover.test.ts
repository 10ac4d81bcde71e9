// The stderr writer off a terminal (src/cli/direct-stderr.ts) against a real non-blocking pipe that
// fills: what the descriptor refuses goes to Node's stream, nothing lost, nothing out of order.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { descriptorWriter } from '../../src/cli/direct-stderr.js';
import { tempDir } from '../helpers/tmp.js';

describe('stderr written straight to its descriptor', () => {
  it.runIf(process.platform !== 'win32')('hands a full non-blocking pipe over to the stream, in order, with its listeners', () => {
    const fifo = join(tempDir().dir, 'stderr.fifo');
    execFileSync('mkfifo', [fifo]);
    // Read and write ends in one descriptor, non-blocking: a write past the pipe's buffer is EAGAIN.
    const fd = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
    try {
      const handed: Buffer[] = [];
      const stream = new Writable({
        write(chunk: Buffer, _encoding, done) {
          handed.push(chunk);
          done();
        },
      });
      let handOvers = 0;
      const writer = descriptorWriter(fd, () => (handOvers++, stream as unknown as NodeJS.WriteStream));
      const onError = () => {};
      writer.on('error', onError);
      const lines = Array.from({ length: 4000 }, (_, i) => `line ${i} ${'x'.repeat(60)}\n`);
      for (const line of lines) writer.write(line);

      const direct: Buffer[] = [];
      const buffer = Buffer.alloc(1 << 16);
      for (;;) {
        let n = 0;
        try {
          n = readSync(fd, buffer);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
        }
        if (n === 0) break;
        direct.push(Buffer.from(buffer.subarray(0, n)));
      }
      expect(handOvers).toBe(1);
      expect(Buffer.concat(direct).length).toBeGreaterThan(0);
      expect(Buffer.concat([...direct, ...handed]).toString()).toBe(lines.join(''));
      expect(stream.listeners('error')).toContain(onError);
    } finally {
      closeSync(fd);
    }
  });
});
