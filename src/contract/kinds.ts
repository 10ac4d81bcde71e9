// The two kinds of record the service replaces wholesale, and what differs between them.

export type Kind = 'store-cards' | 'team-members';

export interface KindInfo {
  readonly kind: Kind;
  /** Path under the base URL, from docs/service-interface.md §4. */
  readonly path: string;
  /** The field that identifies a record; the diff and the uniqueness check key on it. */
  readonly keyField: 'nodeKey' | 'employeeID';
  /** Singular noun used in the service's success message: "<n> store card(s) uploaded". */
  readonly noun: string;
}

export const KINDS: Readonly<Record<Kind, KindInfo>> = {
  'store-cards': {
    kind: 'store-cards',
    path: '/integrations/storeCards',
    keyField: 'nodeKey',
    noun: 'store card',
  },
  'team-members': {
    kind: 'team-members',
    path: '/integrations/teamMembers',
    keyField: 'employeeID',
    noun: 'team member',
  },
};

export function kindForPath(pathname: string): KindInfo | undefined {
  return Object.values(KINDS).find((k) => k.path === pathname);
}
