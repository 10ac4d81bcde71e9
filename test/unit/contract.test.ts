import { describe, expect, it } from 'vitest';
import { KINDS, kindForPath } from '../../src/contract/kinds.js';
import { parseSuccessCount, successMessage } from '../../src/contract/message.js';
import { isEmail, openPeriod, storeCard, teamMember, teamMemberAccepted } from '../../src/contract/schemas.js';

const card = { nodeKey: 'S1', email: 'a@example.com', storeConceptCode: 12, opentToGuestsPeriod: { '1': { since: 9, to: 22 } } };
const member = { employeeID: 'E1', email: 'a@example.com', name: 'Ann', roleCode: '3', parentKey: 'S1' };

describe('store card schema', () => {
  it.each([
    ['a full card', card],
    ['null concept code', { ...card, storeConceptCode: null }],
    ['no hours at all', { ...card, opentToGuestsPeriod: {} }],
    ['fractional and past-midnight hours', { ...card, opentToGuestsPeriod: { '0': { since: 6, to: 30 }, '6': { since: 23, to: 26.5 } } }],
  ])('accepts %s', (_, value) => {
    expect(storeCard.safeParse(value).success).toBe(true);
  });

  it.each([
    ['since below 6', { '1': { since: 5.5, to: 22 } }],
    ['since above 23', { '1': { since: 23.5, to: 26 } }],
    ['to below 8', { '1': { since: 6, to: 7 } }],
    ['to above 30', { '1': { since: 20, to: 30.5 } }],
    ['since not before to', { '1': { since: 12, to: 12 } }],
    ['a weekday key out of range', { '7': { since: 9, to: 22 } }],
    ['a weekday name as key', { mon: { since: 9, to: 22 } }],
    ['an extra field in a day', { '1': { since: 9, to: 22, open: true } }],
    ['a string hour', { '1': { since: '9', to: 22 } }],
  ])('rejects %s', (_, period) => {
    expect(openPeriod.safeParse(period).success).toBe(false);
  });

  it('rejects the misspelling without the t and any unknown field', () => {
    const { opentToGuestsPeriod, ...rest } = card;
    expect(storeCard.safeParse({ ...rest, openToGuestsPeriod: opentToGuestsPeriod }).success).toBe(false);
  });

  it('requires nodeKey and email, and a number or null concept code', () => {
    expect(storeCard.safeParse({ ...card, nodeKey: ' ' }).success).toBe(false);
    expect(storeCard.safeParse({ ...card, email: 'nope' }).success).toBe(false);
    expect(storeCard.safeParse({ ...card, storeConceptCode: '12' }).success).toBe(false);
  });
});

describe('team member schema', () => {
  it('accepts a full member and null role and parent', () => {
    expect(teamMember.safeParse(member).success).toBe(true);
    expect(teamMember.safeParse({ ...member, roleCode: null, parentKey: null }).success).toBe(true);
  });

  it('the CLI sends roleCode as a string; the service also accepts a number and stores a string', () => {
    expect(teamMember.safeParse({ ...member, roleCode: 3 }).success).toBe(false);
    const accepted = teamMemberAccepted.safeParse({ ...member, roleCode: 3 });
    expect(accepted.success && accepted.data.roleCode).toBe('3');
  });

  it.each(['employeeID', 'email', 'name'])('requires %s', (field) => {
    expect(teamMember.safeParse({ ...member, [field]: '' }).success).toBe(false);
    const { [field as keyof typeof member]: _, ...rest } = member;
    expect(teamMember.safeParse(rest).success).toBe(false);
  });
});

describe('emails', () => {
  it.each(['a@example.com', 'björn@example.com', 'first.last+tag@sub.example.co.uk', 'ærlig@æøå.no', 'x@xn--bcher-kva.example'])('accepts %s', (e) => {
    expect(isEmail(e)).toBe(true);
  });
  it.each(['bob@', '@example.com', 'a b@example.com', 'a@@example.com', 'a@example', 'a@example..com', 'a@-example.com'])('rejects %s', (e) => {
    expect(isEmail(e)).toBe(false);
  });
});

describe('success message', () => {
  it('is built and parsed exactly as the interface writes it', () => {
    expect(successMessage(KINDS['store-cards'], 3)).toBe('3 store card(s) uploaded');
    expect(successMessage(KINDS['team-members'], 1234)).toBe('1234 team member(s) uploaded');
    expect(parseSuccessCount(KINDS['team-members'], '1234 team member(s) uploaded')).toBe(1234);
    expect(parseSuccessCount(KINDS['store-cards'], '0 store card(s) uploaded')).toBe(0);
  });
  it('does not confirm a message of the other kind or another form', () => {
    expect(parseSuccessCount(KINDS['store-cards'], '3 team member(s) uploaded')).toBeUndefined();
    expect(parseSuccessCount(KINDS['store-cards'], 'ok')).toBeUndefined();
    expect(parseSuccessCount(KINDS['store-cards'], '-3 store card(s) uploaded')).toBeUndefined();
  });
  it('maps paths to kinds', () => {
    expect(kindForPath('/integrations/storeCards')?.kind).toBe('store-cards');
    expect(kindForPath('/integrations/teamMembers')?.kind).toBe('team-members');
    expect(kindForPath('/integrations/teammembers')).toBeUndefined();
  });
});
