// How a header is compared with the last one recorded (src/map/layout-memory.ts): which columns were
// added, removed or renamed, and how a recorded mapping and the flags given combine.
import { describe, expect, it } from 'vitest';
import { compareHeaders, overlay, readRecorded } from '../../src/map/layout-memory.js';

describe('compareHeaders', () => {
  it.each([
    [['A', 'Job', 'C'], ['A', 'Position', 'C'], { added: [], removed: [], renamed: [{ from: 'Job', to: 'Position' }] }],
    [['A', 'B', 'C'], ['A', 'C', 'D'], { added: ['D'], removed: ['B'], renamed: [] }],
    [
      ['A', 'E-Mail', 'Job'],
      ['A', 'Mail', 'Dept'],
      {
        added: [],
        removed: [],
        renamed: [
          { from: 'E-Mail', to: 'Mail' },
          { from: 'Job', to: 'Dept' },
        ],
      },
    ],
    [['Job Title', 'A'], ['A', 'job_title'], { added: [], removed: [], renamed: [{ from: 'Job Title', to: 'job_title' }] }],
    // Seven weekdays become one column and two others: not renames, whatever their places.
    [
      ['ID', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'],
      ['ID', 'Business days', 'Sa', 'So'],
      { added: ['Business days', 'Sa', 'So'], removed: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'], renamed: [] },
    ],
    [['A', 'B'], ['B', 'A'], { added: [], removed: [], renamed: [] }],
  ])('%j → %j', (before, after, changes) => {
    expect(compareHeaders(before, after)).toEqual(changes);
  });
});

describe('overlay', () => {
  const recorded = {
    fields: { email: ['Mail'], name: ['First', 'Last'] },
    ignore: ['Dept'],
    status: { column: 'Status', active: ['A'] },
    timeFormat: 'clock' as const,
  };
  it('keeps what the flags do not say, and takes what they do', () => {
    expect(overlay(recorded, { fields: { email: ['Work Mail'] }, ignore: [], timeFormat: undefined })).toMatchObject({
      fields: { email: ['Work Mail'], name: ['First', 'Last'] },
      ignore: ['Dept'],
      status: { column: 'Status', active: ['A'] },
      timeFormat: 'clock',
    });
  });
  it('drops a recorded field whose column the flags leave out, and a recorded status the flags call no status', () => {
    const out = overlay(recorded, { fields: {}, ignore: ['Mail'], notStatus: ['status'] });
    expect(out.fields).toEqual({ name: ['First', 'Last'] });
    expect(out.status).toBeUndefined();
    expect(out.notStatus).toEqual(['status']);
  });
  it('maps a column the recorded mapping left out when the flags map it', () => {
    expect(overlay(recorded, { fields: { roleCode: ['Dept'] } }).ignore).toEqual([]);
  });
});

describe('readRecorded', () => {
  it('reads a layout as recorded, and takes one of another shape for none', () => {
    const layout = { header: ['ID', 'Job'], mapping: { fields: { roleCode: ['Job'] }, ignore: [], values: { roleCode: { Cook: 3 } } } };
    expect(readRecorded(layout)).toEqual(layout);
    expect(readRecorded(undefined)).toBeUndefined();
    expect(readRecorded({ header: ['ID'], mapping: { fields: { roleCode: 'Job' } } })).toBeUndefined();
    expect(readRecorded({ header: [1], mapping: {} })).toBeUndefined();
  });
});
