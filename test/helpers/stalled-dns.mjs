// Preloaded into a CLI process (NODE_OPTIONS=--import=…): a name lookup of any host under
// .slow.example.test never answers and, as getaddrinfo does on its libuv thread while a dead name
// server is asked, holds the process alive meanwhile. No real DNS is involved; other names resolve as usual.
import dns from 'node:dns';

const real = dns.lookup;
dns.lookup = function lookup(hostname, ...rest) {
  if (typeof hostname === 'string' && hostname.endsWith('.slow.example.test')) {
    setInterval(() => {}, 60_000);
    return {};
  }
  return real.call(this, hostname, ...rest);
};
