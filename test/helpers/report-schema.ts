// Every --json report a test reads is held to docs/report.schema.json, the schema the package ships:
// a key the schema does not name fails the test that saw it, so a new key is added to the schema (and
// to docs/report.md) in the same change. ajv in strict mode also checks the schema itself.
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';

export const REPORT_SCHEMA = JSON.parse(readFileSync(new URL('../../docs/report.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;

const validate = new Ajv2020({ strict: true, allErrors: true }).compile(REPORT_SCHEMA);

/** The schema's complaints about `report`, one line each (none when it conforms). */
export function reportProblems(report: unknown): string[] {
  if (validate(report)) return [];
  return (validate.errors ?? []).map(describe);
}

function describe(e: ErrorObject): string {
  const at = e.instancePath || '(the report)';
  const params = e.params as { additionalProperty?: string; allowedValues?: unknown[] };
  if (params.additionalProperty !== undefined) {
    return `${at}: key '${params.additionalProperty}' is not in docs/report.schema.json — add it there (properties and required) and to docs/report.md`;
  }
  if (params.allowedValues) return `${at}: ${e.message} ${JSON.stringify(params.allowedValues)}`;
  return `${at}: ${e.message}`;
}

/** Throws, naming every problem, unless `report` conforms to the schema. */
export function checkReport(report: unknown): void {
  const problems = reportProblems(report);
  if (problems.length) throw new Error(`the --json report does not match docs/report.schema.json:\n  ${problems.join('\n  ')}`);
}

/** stdout of a --json run: exactly one JSON document; an upload report (it has an outcome) is checked. */
export function parseReport<T = Record<string, any>>(stdout: string): T {
  const value = JSON.parse(stdout) as unknown;
  if (typeof value === 'object' && value !== null && 'outcome' in value) checkReport(value);
  return value as T;
}
