// `upload sandbox`: the reference service on loopback, until SIGINT or SIGTERM.
import { defineCommand } from '../cli/command.js';

export default defineCommand({
  description: 'Run the reference service (a faithful local copy of the scheduling service) for rehearsals and tests. The token is read from SANDBOX_TOKEN.',
  examples: [
    '$ SANDBOX_TOKEN=dev-token upload sandbox --port 0 --data-dir ./sandbox-data',
    '$ UPLOAD_TOKEN=dev-token upload team-members staff.csv --base-url http://127.0.0.1:PORT --yes',
  ],
  flags: ['port', 'host', 'dataDir', 'maxBody', 'allowRemote'],
  // It logs each request as it comes and stops on the signal itself.
  ownsTerminal: true,
  run: async ({ flags, io }) => {
    const [{ UploadError, UsageError }, { isLoopback }, { DEFAULT_MAX_BODY, startSandbox }] = await Promise.all([
      import('../errors.js'),
      import('../send/config.js'),
      import('../sandbox/server.js'),
    ]);
    const token = io.env.SANDBOX_TOKEN;
    const port = Number(flags.port);
    const maxBody = flags.maxBody === undefined ? DEFAULT_MAX_BODY : Number(flags.maxBody);
    const problem = !token
      ? new UsageError('NO_TOKEN', 'SANDBOX_TOKEN is not set', 'set SANDBOX_TOKEN to the token clients must send, e.g. SANDBOX_TOKEN=dev-token upload sandbox')
      : !Number.isInteger(port) || port < 0 || port > 65535
        ? new UsageError('BAD_FLAG', `--port '${flags.port}' is not a port number`, 'use 0 to 65535 (0 picks a free port)')
        : !Number.isInteger(maxBody) || maxBody < 1
          ? new UsageError('BAD_FLAG', `--max-body '${flags.maxBody}' is not a number of bytes`, 'e.g. --max-body 1073741824')
          : !isLoopback(flags.host ?? '127.0.0.1') && flags.allowRemote === undefined
            ? new UsageError(
                'SANDBOX_NOT_LOOPBACK',
                `--host ${flags.host} would let other machines reach the sandbox, a rehearsal service with one shared bearer token and no TLS`,
                'keep the default 127.0.0.1; if other machines must reach it, pass --allow-remote as well',
              )
            : undefined;
    if (problem) return { failure: problem };
    if (!isLoopback(flags.host ?? '127.0.0.1')) {
      io.stderr.write(
        `WARNING: the sandbox listens on ${flags.host}, reachable from other machines, over plain http with one shared token. Use it only on a network you trust.\n`,
      );
    }
    let sandbox;
    try {
      sandbox = await startSandbox({ token: token!, host: flags.host, port, dataDir: flags.dataDir, maxBody, log: (line) => io.stderr.write(`${line}\n`) });
    } catch (err) {
      if (err instanceof UploadError) return { failure: err }; // its data directory, named as such
      const e = err as NodeJS.ErrnoException;
      // Another port cannot help a host that is not this machine's: that hint would only fail again.
      const hint =
        e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND'
          ? `--host ${flags.host} is not an address of this machine: give one of its own, or leave --host out for 127.0.0.1`
          : 'pick another --port, or --port 0 for a free one';
      return {
        failure: new UsageError('SANDBOX_CANNOT_LISTEN', `the sandbox cannot listen on ${flags.host}:${port}: ${e.code ?? e.message}`, hint, { cause: err }),
      };
    }
    // Listening for the signal before saying so: a supervisor that stops it on the line (a test, a
    // script) could otherwise send SIGTERM in between, and Node's default would end it mid-way.
    const stopped = new Promise<NodeJS.Signals>((resolve) => {
      process.once('SIGINT', () => resolve('SIGINT'));
      process.once('SIGTERM', () => resolve('SIGTERM'));
    });
    // The address on stdout, alone, so scripts can capture it; everything else goes to stderr.
    io.stdout.write(`${sandbox.url}\n`);
    io.stderr.write(`Sandbox listening on ${sandbox.url}${flags.dataDir ? `, data in ${flags.dataDir}` : ' (in memory)'}; Ctrl-C stops it\n`);
    const signal = await stopped;
    await sandbox.close();
    io.stderr.write(`Sandbox stopped (${signal})\n`);
    return {};
  },
});
