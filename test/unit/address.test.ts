// Protection follows the address: the same service written another way is the same address, and a
// host name is the IP literal it resolves to; another path, port or scheme is another service, and two
// names are two services (docs/targets.md, "An address is its target").
import { describe, expect, it } from 'vitest';
import { addressKey, guardedAt, resolverForRun, sameService, type Resolve } from '../../src/config/address.js';
import { checkAddress, type ChosenTarget } from '../../src/config/target.js';
import type { Config } from '../../src/config/schema.js';

/** A scripted resolver: the names a test's DNS holds, and how often each was asked. */
function hosts(table: Record<string, string[]>): { resolve: Resolve; asked: Map<string, number> } {
  const asked = new Map<string, number>();
  const resolve = resolverForRun((name) => {
    asked.set(name, (asked.get(name) ?? 0) + 1);
    const found = table[name];
    return found ? Promise.resolve(found.map((address) => ({ address }))) : Promise.reject(Object.assign(new Error(name), { code: 'ENOTFOUND' }));
  });
  return { resolve, asked };
}

const DNS = {
  localhost: ['127.0.0.1', '::1'],
  'scheduling.example.com': ['203.0.113.7'],
  'staging.example.com': ['203.0.113.7'],
  'mapped.example.com': ['::ffff:203.0.113.8'],
};

describe('addressKey', () => {
  it.each([
    ['https://Scheduling.Example.com', 'https://scheduling.example.com'],
    ['https://scheduling.example.com/', 'https://scheduling.example.com'],
    ['https://scheduling.example.com.:443//', 'https://scheduling.example.com'],
    ['https://ops@scheduling.example.com/?x=1#y', 'https://scheduling.example.com'],
    ['http://localhost.:8080', 'http://localhost:8080'],
    ['http://LOCALHOST:80/', 'http://localhost'],
    ['http://127.1:8080/api/', 'http://127.0.0.1:8080/api'],
    ['http://0x7f.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['http://[::ffff:127.0.0.1]:8080', 'http://127.0.0.1:8080'],
    ['http://[::FFFF:7f00:1]:8080', 'http://127.0.0.1:8080'],
    ['http://[0:0:0:0:0:0:0:1]:8080', 'http://[::1]:8080'],
    ['https://bücher.example', 'https://xn--bcher-kva.example'],
  ])('%s is %s', (text, key) => {
    expect(addressKey(text)).toBe(key);
  });

  it('is undefined for text that is not an address', () => {
    expect(addressKey('not a url')).toBeUndefined();
  });
});

describe('sameService', () => {
  it.each([
    ['http://localhost:8080', 'http://localhost.:8080/'],
    ['http://localhost:8080', 'http://127.0.0.1:8080'],
    ['http://localhost:8080', 'http://[::1]:8080'],
    ['http://localhost:8080', 'http://[::ffff:127.0.0.1]:8080'],
    ['http://LocalHost:80', 'http://127.1'],
    ['https://scheduling.example.com', 'https://203.0.113.7:443/'],
    ['https://mapped.example.com', 'https://203.0.113.8'],
  ])('%s is %s', async (a, b) => {
    const { resolve } = hosts(DNS);
    expect(await sameService(a, b, resolve)).toBe(true);
    expect(await sameService(b, a, resolve)).toBe(true);
  });

  it.each([
    ['another port', 'http://localhost:8080', 'http://127.0.0.1:8081'],
    ['another scheme', 'https://scheduling.example.com', 'http://203.0.113.7:443'],
    ['another path', 'http://localhost:8080/a', 'http://127.0.0.1:8080/b'],
    ['an address the name does not resolve to', 'http://localhost:8080', 'http://127.0.0.2:8080'],
    ['two names on one address (virtual hosts)', 'https://scheduling.example.com', 'https://staging.example.com'],
    ['a name that does not resolve', 'https://gone.example.com', 'https://203.0.113.7'],
    ['two IP literals', 'http://127.0.0.1:8080', 'http://[::1]:8080'],
  ])('%s is another service: %s, %s', async (_, a, b) => {
    const { resolve } = hosts(DNS);
    expect(await sameService(a, b, resolve)).toBe(false);
  });

  it('looks each name up once per run, and only when a name meets an IP literal', async () => {
    const { resolve, asked } = hosts(DNS);
    for (const ip of ['http://127.0.0.1:8080', 'http://[::1]:8080', 'http://127.0.0.2:8080']) await sameService('http://localhost:8080', ip, resolve);
    await sameService('https://scheduling.example.com', 'https://staging.example.com', resolve);
    expect(Object.fromEntries(asked)).toEqual({ localhost: 1 });
  });

  it('resolves with the system resolver by default (localhost, from the hosts file)', async () => {
    expect(await sameService('http://localhost:8080', 'http://127.0.0.1:8080', resolverForRun())).toBe(true);
  });
});

describe('guardedAt', () => {
  const config: Config = {
    targets: {
      staging: { baseUrl: 'https://staging.example.com' },
      production: { baseUrl: 'https://scheduling.example.com', approvals: 1 },
      archive: { baseUrl: 'https://archive.example.com', protected: true },
      local: { baseUrl: 'http://localhost:8080', protected: true },
    },
  };
  const at = async (address: string) => (await guardedAt(config, address, hosts(DNS).resolve)).map((t) => t.name);
  it('finds the protected or approval-requiring target at an address, however it is written', async () => {
    expect(await at('HTTPS://scheduling.example.com:443/')).toEqual(['production']);
    expect(await at('https://203.0.113.7')).toEqual(['production']);
    expect(await at('https://archive.example.com./')).toEqual(['archive']);
    expect(await at('http://127.0.0.1:8080')).toEqual(['local']);
    expect(await at('http://[::ffff:127.0.0.1]:8080/')).toEqual(['local']);
  });
  it('finds none at an unguarded target or another address', async () => {
    expect(await at('https://staging.example.com')).toEqual([]);
    expect(await at('https://scheduling.example.com/v2')).toEqual([]);
    expect(await at('http://127.0.0.1:8081')).toEqual([]);
  });
});

describe('checkAddress', () => {
  const chosen: ChosenTarget = { name: 'local', target: { baseUrl: 'http://localhost:8080' }, how: '--target', configPath: '/c.json' };
  it.each(['http://localhost.:8080', 'http://LOCALHOST:8080/', 'http://localhost:8080?'])('takes %s as the target’s own address', (value) => {
    expect(() => checkAddress(chosen, { value, from: '--base-url' })).not.toThrow();
  });
  it('asks which of two services (CONFLICTING_ADDRESS) unless they were found to be one', () => {
    expect(() => checkAddress(chosen, { value: 'http://127.0.0.1:8080', from: '--base-url' })).toThrow(
      expect.objectContaining({ code: 'CONFLICTING_ADDRESS' }),
    );
    expect(() => checkAddress(chosen, { value: 'http://127.0.0.1:8080', from: '--base-url' }, true)).not.toThrow();
  });
});
