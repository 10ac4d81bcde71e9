// A missing `name` next to first- and last-name columns: the exact --map line that joins them.
import { normalise } from './columns.js';

// Per language, as HR exports name them (normalised: no case, accents, spaces or dots).
const FIRST = ['first name', 'firstname', 'given name', 'forename', 'vorname', 'prénom', 'prenom', 'voornaam', 'roepnaam', 'nome', 'nombre'];
// Dutch surnames carry their particle in a column of its own (van, de, van der): it goes between.
const MIDDLE = ['middle name', 'tussenvoegsel', 'voorvoegsel'];
const LAST = [
  'last name',
  'lastname',
  'surname',
  'family name',
  'nachname',
  'familienname',
  'nom',
  'nom de famille',
  'achternaam',
  'familienaam',
  'cognome',
  'apellido',
  'apellidos',
  'primer apellido',
];
const SECOND_LAST = ['segundo apellido'];

const find = (columns: readonly string[], names: readonly string[]) => {
  const wanted = new Set(names.map(normalise));
  return columns.find((c) => c !== '' && wanted.has(normalise(c)));
};

/** `--map '{"name": ["First Name", "Last Name"]}'` when the header has both halves, else undefined. */
export function nameAdvice(columns: readonly string[]): string | undefined {
  const first = find(columns, FIRST);
  const last = find(columns, LAST);
  if (first === undefined || last === undefined) return undefined;
  const parts = [first, find(columns, MIDDLE), last, find(columns, SECOND_LAST)].filter((c): c is string => c !== undefined);
  const json = JSON.stringify({ name: parts }).replace(/","/g, '", "').replace(/":\[/, '": [');
  return `--map '${json.replace(/'/g, "'\\''")}'`;
}
