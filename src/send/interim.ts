// An unsolicited `100 Continue` before the final answer. HTTP lets a server send interim answers, and
// some middleboxes send a 100 although the request asked for none; undici treats one it did not ask
// for as a broken answer, and an upload the service applied would end as "outcome unknown" after
// sending the body again and again. So the connections this tool opens drop any 100 that comes before
// the final answer's status line (a `103 Early Hints` undici already skips). One request per
// connection (`reset: true` in attempt.ts) means the first bytes read are the answer's.
import type { Socket } from 'node:net';
import { buildConnector } from 'undici';

const CONTINUE = /^HTTP\/1\.[01] 100\b/;
/** Long enough to tell a status line's code: "HTTP/1.1 100". */
const STATUS_PREFIX = 12;
/** An interim answer's head larger than this is not one: it is passed on for undici to judge. */
const MAX_INTERIM_HEAD = 16 * 1024;

/** The connector undici would use, whose sockets skip any 100 before the final answer. */
export function skippingContinue(options: buildConnector.BuildOptions): buildConnector.connector {
  const connect = buildConnector(options);
  return (opts, callback) =>
    connect(opts, (err, socket) => {
      if (err || !socket) return callback(err, null);
      dropContinue(socket);
      callback(null, socket);
    });
}

/** undici pulls the answer with `socket.read()`: this read holds back and drops the 100s at its start. */
function dropContinue(socket: Socket): void {
  const read = socket.read.bind(socket);
  let held: Buffer = Buffer.alloc(0);
  let passing = false;
  socket.read = (size?: number) => {
    if (passing) return read(size) as unknown;
    for (;;) {
      const chunk = read() as Buffer | null;
      if (chunk === null) return null;
      held = held.length ? Buffer.concat([held, chunk]) : chunk;
      for (;;) {
        if (held.length < STATUS_PREFIX || !CONTINUE.test(held.toString('latin1', 0, STATUS_PREFIX))) break;
        const end = held.indexOf('\r\n\r\n');
        if (end < 0) break;
        held = held.subarray(end + 4);
      }
      const undecided = held.length < STATUS_PREFIX || (CONTINUE.test(held.toString('latin1', 0, STATUS_PREFIX)) && held.length <= MAX_INTERIM_HEAD);
      if (undecided) continue;
      passing = true;
      const out = held;
      held = Buffer.alloc(0);
      return out;
    }
  };
}
