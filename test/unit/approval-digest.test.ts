// What an approval is bound to: a plan that holds nothing keeps the digest it always had (approvals
// given before held keys were bound still count); the keys a plan holds back, and what a release's
// plan says it releases, are part of it when present.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { approvalDigest } from '../../src/pipeline/approval.js';

const base = {
  bodySha256: 'a'.repeat(64),
  kind: 'team-members',
  address: 'https://scheduling.example.com',
  generation: 12,
  limits: { maxRemovals: '10%', maxChanges: '25%', maxEmptied: '5%', allowEmpty: false },
} as const;

/** The digest as plans made before held keys were bound computed it. */
const before = createHash('sha256')
  .update(JSON.stringify(['scheduling-upload-approval/1', base.bodySha256, base.kind, base.address, '12', '10%', '25%', '5%', 'false']))
  .digest('hex');

describe('approvalDigest', () => {
  it('is unchanged for a plan that holds nothing and releases nothing', () => {
    expect(approvalDigest(base)).toBe(before);
    expect(approvalDigest({ ...base, held: [] })).toBe(before);
  });

  it('covers the held keys (in any order) and what a release says it releases', () => {
    const held = approvalDigest({ ...base, held: ['E2', 'E1'] });
    expect(held).not.toBe(before);
    expect(approvalDigest({ ...base, held: ['E1', 'E2'] })).toBe(held);
    expect(approvalDigest({ ...base, held: ['E1'] })).not.toBe(held);
    const release = approvalDigest({ ...base, release: { generation: 11, keys: ['E1', 'E2'] } });
    expect(release).not.toBe(before);
    expect(approvalDigest({ ...base, release: { generation: 10, keys: ['E1', 'E2'] } })).not.toBe(release);
    expect(approvalDigest({ ...base, release: { generation: 11, keys: ['E1'] } })).not.toBe(release);
  });
});
