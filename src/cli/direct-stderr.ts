// stdout and stderr written straight to their descriptors when each is a file, a pipe or a socket (a
// log, `2>&1 | …`, `--json > report.json`, a parent process's pipe) — not a terminal. Making
// `process.stderr` or `process.stdout` there loads Node's stream modules and, for a pipe or a socket,
// `net`: about a tenth of a 10-row dry run's instructions, for the few lines it writes
// (docs/performance.md, start-up). Node writes such a stream synchronously anyway (a file through
// fs.writeSync, a pipe at once while it has room), so the lines come out in the same order at the
// same moments.
import { fstatSync, writeSync } from 'node:fs';

/** What a run's code asks of stdout or stderr off a terminal: the rest of a stream is never touched there. */
export type DirectStderr = Pick<NodeJS.WriteStream, 'isTTY' | 'write' | 'on' | 'listenerCount'>;

/** A listener as Node's stream takes it. */
type Listener = Parameters<NodeJS.WriteStream['on']>[1];

const direct = new Map<1 | 2, DirectStderr | null>();

/**
 * The writer for the process's fd 1 or 2, or null when it should be Node's own stream: a terminal
 * (colour, a spinner, a question), a device such as /dev/null, Windows. Made once per descriptor:
 * every run of the process writes through the same one. `handOver` makes Node's stream for a write
 * the descriptor refused.
 */
export function directOutput(fd: 1 | 2, handOver: () => NodeJS.WriteStream): DirectStderr | null {
  let writer = direct.get(fd);
  if (writer === undefined) direct.set(fd, (writer = process.platform !== 'win32' && offTerminal(fd) ? descriptorWriter(fd, handOver) : null));
  return writer;
}

function offTerminal(fd: number): boolean {
  try {
    const kind = fstatSync(fd);
    return kind.isFile() || kind.isFIFO() || kind.isSocket();
  } catch {
    return false; // no such descriptor at all: Node's stream copes with that
  }
}

/** A writer of `fd` with fs.writeSync; exported for its test, which gives it a full non-blocking pipe. */
export function descriptorWriter(fd: number, handOver: () => NodeJS.WriteStream): DirectStderr {
  /** Node's stream, once the descriptor refused a write: everything after goes through it, in order. */
  let stream: NodeJS.WriteStream | undefined;
  /** The reader went away (EPIPE): what is left to say has nowhere to go, as with Node's stream. */
  let gone = false;
  /** Listeners a run put on stderr (main.ts's for a broken pipe): passed on to the stream, if made. */
  const listeners: [string, Listener][] = [];
  const send = (bytes: Uint8Array) => {
    if (stream) return void stream.write(bytes);
    for (let at = 0; at < bytes.length && !gone;) {
      try {
        at += writeSync(fd, bytes, at);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EPIPE') gone = true;
        else {
          // EAGAIN (a pipe left non-blocking by whoever made it, and full) or anything else: Node's
          // stream waits for room, or reports the error as it always did.
          stream = handOver();
          for (const [event, listener] of listeners) stream.on(event, listener);
          stream.write(bytes.subarray(at));
          return;
        }
      }
    }
  };
  const self = {
    isTTY: false as const,
    write(chunk: string | Uint8Array, encoding?: unknown, done?: (err?: Error | null) => void): boolean {
      send(typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : chunk);
      const callback = typeof encoding === 'function' ? (encoding as typeof done) : done;
      if (callback) process.nextTick(callback);
      return true;
    },
    // Nothing is emitted here (a broken pipe is handled above); kept for the stream, if one is made.
    on(event: string, listener: Listener) {
      listeners.push([event, listener]);
      if (stream) stream.on(event, listener);
      return self;
    },
    listenerCount: (event: string) => listeners.filter(([e]) => e === event).length,
  };
  return self as unknown as DirectStderr;
}
