// The suite's hooks, and how a build leaves them out. src/state/pause.ts lets a test stop a run at a
// step of the write-ahead protocol (UPLOAD_TEST_PAUSE_AT). What ships — dist/program/ (the package)
// and the single executable — is bundled with that module replaced by one that does nothing, so no
// variable can switch it on; only the suite's own bundle (dist/hooks/, test/setup/build.ts) keeps it.

/** The modules that exist for the tests alone, compiled (dist/state/pause.js) or not (src/state/pause.ts). */
export const TEST_HOOK_MODULE = /[\\/]state[\\/]pause\.[jt]s$/;

/** What a shipped build holds in their place: the same exports, doing nothing. */
export const SHIPPED_HOOKS = 'export function pauseAt(_step) {}\n';

/** The words a shipped build must not contain (test/process/package-contents.test.ts, executable.test.ts). */
export const HOOK_WORDS = ['UPLOAD_TEST_PAUSE_AT', 'paused at'];
