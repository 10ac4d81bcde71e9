// The process as the commands see it: passed in, so tests can run `main(argv, io)` in-process.
export interface ProcessIo {
  readonly argv0?: string;
  readonly stdin: NodeJS.ReadStream;
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
  readonly env: NodeJS.ProcessEnv;
}

export const processIo = (): ProcessIo => ({ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env });
