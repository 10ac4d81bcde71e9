// The aliases in six languages: each means one field, and docs/input.md lists every one of them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALIASES, matchColumn, normalise } from '../../src/map/columns.js';
import { ROOT } from '../helpers/cli.js';

const doc = readFileSync(`${ROOT}/docs/input.md`, 'utf8');

describe.each(Object.entries(ALIASES))('%s aliases', (kind, fields) => {
  it('no alias means two fields', () => {
    const seen = new Map<string, string>();
    for (const [field, aliases] of Object.entries(fields)) {
      for (const alias of aliases) {
        const n = normalise(alias);
        expect(seen.get(n) ?? field, `${alias}: ${seen.get(n)} and ${field}`).toBe(field);
        seen.set(n, field);
      }
    }
  });

  it.each(Object.entries(fields))('docs/input.md lists every alias of %s', (field, aliases) => {
    const row = doc.split('\n').find((l) => l.startsWith(`| ${kind} | ${field} |`));
    expect(row, `no row for ${kind} ${field}`).toBeDefined();
    expect(
      row!
        .split('|')[3]!
        .split(',')
        .map((a) => a.trim()),
    ).toEqual(aliases);
  });
});

it.each([
  ['store-cards', 'E-Mail-Adresse', 'email'],
  ['store-cards', 'Konzept', 'storeConceptCode'],
  ['store-cards', 'Vertriebslinie', 'storeConceptCode'],
  ['team-members', 'Rolle', 'roleCode'],
  ['team-members', 'Rôle', 'roleCode'],
  ['team-members', 'Correo electrónico', 'email'],
  ['team-members', 'Matricola', 'employeeID'],
  ['store-cards', 'Numéro de magasin', 'nodeKey'],
] as const)('%s: %j is %s', (kind, column, field) => {
  expect(matchColumn(kind, column)?.field).toBe(field);
});
