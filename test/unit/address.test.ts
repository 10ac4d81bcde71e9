// Protection follows the address: the same service written another way is the same address; another
// path, port or scheme is another service (docs/targets.md, "An address is its target").
import { describe, expect, it } from 'vitest';
import { addressKey, guardedAt } from '../../src/config/address.js';
import type { Config } from '../../src/config/schema.js';

describe('addressKey', () => {
  it.each([
    ['https://Scheduling.Example.com', 'https://scheduling.example.com'],
    ['https://scheduling.example.com/', 'https://scheduling.example.com'],
    ['https://scheduling.example.com.:443//', 'https://scheduling.example.com'],
    ['https://ops@scheduling.example.com/?x=1#y', 'https://scheduling.example.com'],
    ['http://127.1:8080/api/', 'http://127.0.0.1:8080/api'],
    ['http://0x7f.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['http://[::ffff:127.0.0.1]:8080', 'http://127.0.0.1:8080'],
    ['https://bücher.example', 'https://xn--bcher-kva.example'],
  ])('%s is %s', (text, key) => {
    expect(addressKey(text)).toBe(key);
  });

  it.each([
    ['https://scheduling.example.com', 'http://scheduling.example.com'],
    ['https://scheduling.example.com', 'https://scheduling.example.com:8443'],
    ['https://scheduling.example.com/a', 'https://scheduling.example.com/b'],
    ['https://scheduling.example.com/API', 'https://scheduling.example.com/api'],
  ])('%s is not %s', (a, b) => {
    expect(addressKey(a)).not.toBe(addressKey(b));
  });

  it('is undefined for text that is not an address', () => {
    expect(addressKey('not a url')).toBeUndefined();
  });
});

describe('guardedAt', () => {
  const config: Config = {
    targets: {
      staging: { baseUrl: 'https://staging.example.com' },
      production: { baseUrl: 'https://scheduling.example.com', approvals: 1 },
      archive: { baseUrl: 'https://archive.example.com', protected: true },
    },
  };
  it('finds the protected or approval-requiring target at an address, however it is written', () => {
    expect(guardedAt(config, 'HTTPS://scheduling.example.com:443/').map((t) => t.name)).toEqual(['production']);
    expect(guardedAt(config, 'https://archive.example.com./').map((t) => t.name)).toEqual(['archive']);
  });
  it('finds none at an unguarded target or another address', () => {
    expect(guardedAt(config, 'https://staging.example.com')).toEqual([]);
    expect(guardedAt(config, 'https://scheduling.example.com/v2')).toEqual([]);
  });
});
