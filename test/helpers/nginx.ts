// A real nginx in front of a loopback server, started by the test on a free port with a config of its
// own in a temp folder (no daemon, one process), and stopped with the file. Debian's `nginx` package;
// .ci/run installs it when missing.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { join } from 'node:path';
import { tempDir } from './tmp.js';
import { HANG_MS } from './hang.js';

export interface Nginx {
  readonly url: string;
  stop(): Promise<void>;
}

export function nginxBinary(): string {
  const found = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));
  if (!found) throw new Error('nginx is not installed: the middlebox tests need it; .ci/run installs it');
  return found;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function listening(port: number, deadline: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => (Date.now() > deadline ? reject(new Error(`nginx did not listen on ${port}`)) : setTimeout(attempt, 50)));
    };
    attempt();
  });
}

/** nginx proxying every request to `upstream`, with `extra` directives in its server block. */
export async function nginxInFrontOf(upstream: string, extra = ''): Promise<Nginx> {
  const { dir } = tempDir();
  const port = await freePort();
  const conf = join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    `daemon off;
master_process off;
user root;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')};
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${join(dir, 'body')};
  proxy_temp_path ${join(dir, 'proxy')};
  fastcgi_temp_path ${join(dir, 'fastcgi')};
  uwsgi_temp_path ${join(dir, 'uwsgi')};
  scgi_temp_path ${join(dir, 'scgi')};
  client_max_body_size 0;
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass ${upstream};
      proxy_http_version 1.1;
      ${extra}
    }
  }
}
`,
  );
  const child: ChildProcess = spawn(nginxBinary(), ['-c', conf, '-p', dir], { stdio: 'ignore' });
  await listening(port, Date.now() + HANG_MS);
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
