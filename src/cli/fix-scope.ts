// A fix that is another command (`upload state resolve team-members --sent`) must run against the same
// store and service as the run that offered it: the engine that offers it does not know how the run
// named them, so the runner adds the run's own flags for them, as typed (those the fix lacks).
import { isUploadError, type Fix } from '../errors.js';

/** The commands that read the run's store, whose fixes take the run's scope. */
const STORE_COMMANDS = new Set(['state']);
/** The flags that say which store and service a run is about. */
const SCOPE = ['--state', '--state-dir', '--target', '--config', '--base-url'];

function scopeOf(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (SCOPE.some((f) => a.startsWith(`${f}=`))) out.push(a);
    else if (SCOPE.includes(a) && i + 1 < argv.length) out.push(a, argv[++i]!);
  }
  return out;
}

const named = (args: readonly string[], flag: string) => args.some((a) => a === flag || a.startsWith(`${flag}=`));

/** The failure, its command fixes for the store given the run's scope flags. */
export function scopeFixes(failure: unknown, argv: readonly string[]): void {
  if (!isUploadError(failure) || !failure.fixes.some((f) => f.kind === 'command' && STORE_COMMANDS.has(f.args[0]!))) return;
  const scope = scopeOf(argv);
  failure.fixes = failure.fixes.map((fix): Fix => {
    if (fix.kind !== 'command' || !STORE_COMMANDS.has(fix.args[0]!)) return fix;
    const extra: string[] = [];
    for (let i = 0; i < scope.length; i++) {
      const word = scope[i]!;
      const flag = word.includes('=') ? word.slice(0, word.indexOf('=')) : word;
      const value = word.includes('=') ? [] : [scope[++i]!];
      if (!named(fix.args, flag)) extra.push(word, ...value);
    }
    return { kind: 'command', args: [...fix.args, ...extra] };
  });
}
