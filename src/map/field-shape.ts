// Whether a column's values could be a wire field's: a guess "map 'Emial' to email" is offered only
// when the column holds email addresses, an id column only when it holds id-like values. A name that
// is near a field's is not enough ('Location Code' is two letters from 'position code', and holds
// store codes): the values must fit as well.
import { CONTRACT, isEmail } from '../contract/fields.js';
import type { Kind } from '../contract/kinds.js';
import { statusText } from './status-column.js';

/** A key or a code: one token, short, no address. `E-1001`, `DE-001`, `00042`, `KASSE`. */
// Made on first use, like each `…Made` below: V8 parses a `\p{…}` class when the expression is
// made, milliseconds of every start-up for values few runs hold (docs/performance.md, start-up).
let codeMade: RegExp | undefined;
const CODE = () => (codeMade ??= /^[\p{L}\p{N}][\p{L}\p{N}._\-/#]{0,63}$/u);

function fits(type: string, value: string): boolean {
  switch (type) {
    case 'email':
      return isEmail(value);
    case 'key':
      return CODE().test(value) && !value.includes('@');
    case 'text':
      // A name has letters and is no address.
      return /\p{L}/u.test(value) && !value.includes('@');
    case 'text?':
      // roleCode and parentKey: codes and keys, not sentences or addresses.
      return value.length <= 64 && !value.includes('@') && !/\s{2,}|[,;]/.test(value);
    case 'number?':
      return /^-?\d+(?:[.,]\d+)?$/.test(value);
    default:
      return true;
  }
}

/** Every value (non-empty, as written) fits the field's shape per the contract; vacuous when none does not. */
export function valuesFit(kind: Kind, field: string, cells: Iterable<unknown>): boolean {
  const type = (CONTRACT[kind] as Record<string, string>)[field];
  if (type === undefined) return false;
  for (const cell of cells) {
    const value = statusText(cell);
    if (value !== '' && !fits(type, value)) return false;
  }
  return true;
}
