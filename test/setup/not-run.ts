// The reporter `npm test` adds after vitest's own: one closing line naming what the run left to
// `npm run test:system` (./system-tests.ts), so a contributor knows the green is not the whole suite.
import type { Reporter } from 'vitest/node';
import { notRunLine } from './system-tests.js';

export default class NotRun implements Reporter {
  onTestRunEnd(): void {
    console.log(notRunLine());
  }
}
