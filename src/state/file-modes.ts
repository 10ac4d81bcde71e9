// Whether POSIX file modes mean anything here. On Windows Node makes modes up from the read-only flag
// (every file looks 0666 or 0444, open to "group" and "others"); who can read a file is decided by
// the folder's access list, which the tool leaves as it is. There the modes are neither read (a group
// share is not guessed from them) nor reported as a problem, and docs/state.md says what protects the
// files instead: the user's own profile folder, private by default.
export function posixModes(platform: NodeJS.Platform = process.platform): boolean {
  return platform !== 'win32';
}
