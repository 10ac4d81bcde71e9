// A wire field in the words of the person who keeps the stores and the staff list: `opentToGuestsPeriod.1`
// is "Monday opening hours", `employeeID` "personnel number". Pages and summaries show these; the wire
// name stays beside them, in a details column, for whoever compares with the service's interface.

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

const FIELDS: Readonly<Record<string, string>> = {
  nodeKey: 'store key',
  email: 'email',
  storeConceptCode: 'store concept',
  opentToGuestsPeriod: 'opening hours',
  employeeID: 'personnel number',
  name: 'name',
  roleCode: 'role',
  parentKey: 'store (key)',
};

const PARTS: Readonly<Record<string, string>> = { since: 'opening time', to: 'closing time' };

/** "Monday opening hours", "Friday closing time", "email"; an unknown name as it is. */
export function fieldWords(field: string): string {
  const [head, day, part] = field.split('.');
  if (head === 'opentToGuestsPeriod' && day !== undefined && /^[0-6]$/.test(day)) {
    return `${DAYS[Number(day)]} ${part !== undefined ? (PARTS[part] ?? part) : 'opening hours'}`;
  }
  return FIELDS[field] ?? field;
}
