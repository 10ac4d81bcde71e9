// zod's findings in the user's words: which day, which column, the value as written, what to do.
import type { z } from 'zod';
import { HOUR_BOUNDS } from '../contract/fields.js';
import { DAY_NAMES } from '../map/hours.js';
import type { IssueCode } from '../issues.js';

const FIX = 'fix the cell or remove the row';

export function describe(zi: z.core.$ZodIssue, written: string | null, got?: unknown): { code: IssueCode; message: string } {
  const [field, day, end] = zi.path.map(String);
  const shown = written === null || written === '' ? 'empty' : `'${written}'`;
  if (field === 'opentToGuestsPeriod') {
    const name = day !== undefined && /^[0-6]$/.test(day) ? DAY_NAMES[Number(day)] : undefined;
    if (zi.code === 'unrecognized_keys') {
      return {
        code: 'INVALID_HOURS',
        message: `opening hours have key${zi.keys.length > 1 ? 's' : ''} ${zi.keys.map((k) => `'${k}'`).join(', ')}; use the weekday numbers '0' (Sunday) to '6' (Saturday)`,
      };
    }
    if (name && (end === 'since' || end === 'to')) {
      const b = HOUR_BOUNDS[end];
      const what = end === 'since' ? 'opening hour' : 'closing hour';
      if (zi.code === 'too_big' || zi.code === 'too_small') {
        const hour = typeof got === 'number' && String(got) !== written ? `${got} (from ${shown})` : shown;
        return {
          code: 'HOURS_OUT_OF_RANGE',
          message: `${name}: ${what} ${hour} is outside ${b.min} to ${b.max}${end === 'to' ? ' (past midnight counts on: 02:00 the next day is 26)' : ''}; ${FIX}`,
        };
      }
      if (zi.code === 'custom') return { code: 'HOURS_ORDER', message: `${name}: the opening hour must be before the closing hour; ${FIX}` };
      return { code: 'INVALID_HOURS', message: `${name}: ${what} must be a number of hours such as 9.5; ${FIX}` };
    }
    return { code: 'INVALID_HOURS', message: `${name ? `${name}: ` : ''}opening hours must look like {"1": {"since": 9, "to": 22}}; ${FIX}` };
  }
  if (written === null || written.trim() === '') {
    return { code: 'REQUIRED', message: `${field} is required but is empty; fill it in or remove the row` };
  }
  if (field === 'email') return { code: 'INVALID_EMAIL', message: `email ${shown} is not an email address; ${FIX}` };
  if (field === 'storeConceptCode') {
    return { code: 'NOT_A_NUMBER', message: `storeConceptCode ${shown} is not a number; use a concept code such as 12, or leave it empty; ${FIX}` };
  }
  if (zi.code === 'invalid_type' && zi.expected === 'string' && /^-?\d/.test(written)) {
    return {
      code: 'INEXACT_NUMBER',
      message: `${field} ${written} is a JSON number that is not a whole number or is too large to be kept exactly, so it cannot be sent as the text it was; write it in quotes ("…") in the file`,
    };
  }
  if (zi.code === 'invalid_type') {
    return { code: 'WRONG_TYPE', message: `${field} ${shown} must be ${zi.expected === 'string' ? 'text' : `a ${zi.expected}`}; ${FIX}` };
  }
  return { code: 'INVALID_VALUE', message: `${field} ${shown}: ${zi.message}; ${FIX}` };
}
