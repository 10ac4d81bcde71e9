// LibreOffice, headless, doing what a person does when the tool says "open the workbook in LibreOffice
// and save it": `soffice --convert-to` opens the file and saves it in the format given. A profile of
// its own each time, so that a LibreOffice open elsewhere is not disturbed and no setting leaks in.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './tmp.js';

/**
 * `recalculate`: every formula calculated on opening, as Tools ▸ Options ▸ LibreOffice Calc ▸ Formula ▸
 * "Recalculation on File Load: Always recalculate" sets it (the same as Data ▸ Calculate ▸ Recalculate
 * Hard before saving). Without it LibreOffice keeps an .xlsx's cached values, and calculates only
 * the formulas that have none.
 */
export function saveInLibreOffice(files: readonly string[], outDir: string, options: { to: 'xlsx' | 'ods'; recalculate?: boolean }): void {
  const profile = tempDir().dir;
  if (options.recalculate) {
    mkdirSync(join(profile, 'user'), { recursive: true });
    const always = (name: string) =>
      `<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="${name}" oor:op="fuse"><value>0</value></prop></item>`;
    writeFileSync(
      join(profile, 'user', 'registrymodifications.xcu'),
      `<?xml version="1.0" encoding="UTF-8"?><oor:items xmlns:oor="http://openoffice.org/2001/registry">${always('OOXMLRecalcMode')}${always('ODFRecalcMode')}</oor:items>`,
    );
  }
  execFileSync('soffice', [`-env:UserInstallation=file://${profile}`, '--headless', '--convert-to', options.to, '--outdir', outDir, ...files], {
    stdio: 'ignore',
    timeout: 120_000,
  });
}
