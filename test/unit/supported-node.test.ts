import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NODE_FLOOR, supports, unsupportedNode } from '../../src/cli/supported-node.js';
import { ROOT } from '../helpers/cli.js';

describe('the supported Node', () => {
  it('is the floor package.json declares in engines', () => {
    const { engines } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
    expect(engines.node).toBe(`>=${NODE_FLOOR}`);
  });

  it.each([
    ['22.19.0', true],
    ['22.19.1', true],
    ['22.20.0', true],
    ['23.0.0', true],
    ['24.21.0', true],
    ['100.0.0', true],
    ['22.18.9', false],
    ['22.9.0', false],
    ['21.99.0', false],
    ['20.20.2', false],
    ['18.0.0', false],
  ])('Node %s is supported: %s', (version, ok) => {
    expect(supports(version, '22.19')).toBe(ok);
    expect(unsupportedNode(version, '/opt/node/bin/node') === undefined).toBe(ok);
  });

  it('the refusal is one line naming the Node needed and the one found', () => {
    expect(unsupportedNode('20.20.2', '/usr/bin/node')).toBe(
      `upload: needs Node.js ${NODE_FLOOR} or later, and /usr/bin/node is Node.js 20.20.2; run it with a newer node, or use the single executable (docs/install.md)`,
    );
  });
});
