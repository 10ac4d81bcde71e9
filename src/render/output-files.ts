// The CSV files a run writes on request (--errors-csv, --diff-out), as the CLI hands them to the
// engine (RunContext.files): the engine says what goes in them, this puts it into rows. Each writer
// loads only when its flag is given, so starting a run costs nothing here.
import type { OutputFiles } from '../pipeline/context.js';

export const outputFiles: OutputFiles = {
  async errorsCsv(path, { header, rejected, delimiter, errors }) {
    const { errorsCsvLines, writeErrorsCsv } = await import('./errors-csv.js');
    await writeErrorsCsv(path, errorsCsvLines(header, rejected, delimiter, errors));
  },
  async diffCsv(path, { kind, baseline, keys, bodies, delimiter }) {
    const [{ writePrivateFile }, { diffCsvLines }] = await Promise.all([import('../files/private-file.js'), import('./diff-csv.js')]);
    await writePrivateFile(path, '--diff-out', diffCsvLines(kind, baseline, keys, bodies, delimiter));
  },
};
