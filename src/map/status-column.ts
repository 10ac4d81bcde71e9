// HR exports carry leavers: Workday, BambooHR, Personio and SuccessFactors all have a status column
// (`Status`, `Employment Status`, `Beschäftigungsstatus`, `Statut`) with `Terminated`, `Inactive` or
// `Ausgetreten` on the rows of people who left. Such a column is recognised; a row whose status says
// the person left is an error naming it, unless the person says which statuses to keep
// (`--status-column COL --active VALUES`, or "status" in the mapping) — then the other rows are left
// out and listed. A store list's status column (`Closed`, `Geschlossen`) is read the same way.
import { normalise } from './columns.js';

/** Header names of a status column, as normalise() writes them (accents, case, spaces, - _ . removed). */
const STATUS_HEADERS = new Set(
  [
    'Status',
    'Employment Status',
    'Employee Status',
    'Worker Status',
    'Employment State',
    'Beschäftigungsstatus',
    'Mitarbeiterstatus',
    'Personalstatus',
    'Beschäftigungsverhältnis Status',
    'Statut',
    "Statut d'emploi",
    'Statut du salarié',
    'Estado',
    'Estado laboral',
    'Estado del empleado',
    'Stato',
    'Stato dipendente',
    'Store Status',
    'Filialstatus',
  ].map(normalise),
);

/** Statuses that say a person left (or a store closed for good), normalised. */
const GONE = new Set(
  [
    'Terminated',
    'Inactive',
    'Leaver',
    'Left',
    'Former',
    'Former Employee',
    'Resigned',
    'Retired',
    'Withdrawn',
    'Deceased',
    'Dismissed',
    'Separated',
    'Exited',
    'Ausgetreten',
    'Ausgeschieden',
    'Inaktiv',
    'Gekündigt',
    'Beendet',
    'Austritt',
    'Inactif',
    'Sorti',
    'Sortie',
    'Parti',
    'Démissionnaire',
    'Licencié',
    'Baja',
    'De baja',
    'Dado de baja',
    'Inactivo',
    'Cesado',
    'Cessato',
    'Inattivo',
    'Dimesso',
    'Closed',
    'Permanently closed',
    'Geschlossen',
    'Fermé',
    'Cerrado',
    'Chiuso',
  ].map(normalise),
);

export interface StatusSetting {
  /** The column named by --status-column or the mapping's "status". */
  readonly column: string;
  /** The statuses whose rows are kept. */
  readonly active: readonly string[];
}

export interface StatusColumn {
  readonly index: number;
  readonly column: string;
  /** Normalised statuses to keep, when the person said; otherwise rows that say "left" are errors. */
  readonly active: ReadonlySet<string> | undefined;
}

/** The file's status column: the one named, or one whose header reads as a status. */
export function findStatusColumn(columns: readonly string[], setting: StatusSetting | undefined, taken: ReadonlySet<number>): StatusColumn | undefined {
  if (setting) {
    const index = columns.findIndex((c) => normalise(c) === normalise(setting.column));
    return index === -1 ? undefined : { index, column: columns[index]!, active: new Set(setting.active.map(normalise)) };
  }
  const index = columns.findIndex((c, i) => !taken.has(i) && STATUS_HEADERS.has(normalise(c)));
  return index === -1 ? undefined : { index, column: columns[index]!, active: undefined };
}

export type StatusVerdict = 'keep' | 'left' | 'excluded';

/** What a row's status cell says: kept, a leaver (an error unless statuses were given), or left out. */
export function statusVerdict(status: StatusColumn, cell: unknown): StatusVerdict {
  const value = normalise(statusText(cell));
  if (status.active) return status.active.has(value) ? 'keep' : 'excluded';
  return GONE.has(value) ? 'left' : 'keep';
}

/** A status cell as text: a workbook may hold a number or a boolean there; anything else reads as empty. */
export function statusText(cell: unknown): string {
  return typeof cell === 'string' ? cell.trim() : typeof cell === 'number' || typeof cell === 'boolean' ? String(cell) : '';
}
