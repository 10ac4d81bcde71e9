// Whether POSIX file modes mean anything here. On Windows Node makes modes up from the read-only flag
// (every file looks 0666 or 0444, open to "group" and "others"); who can read a file is decided by
// the folder's access list, which the tool leaves as it is. There the modes are neither read (a group
// share is not guessed from them) nor reported as a problem, and docs/state.md says what protects the
// files instead: the user's own profile folder, private by default.
export function posixModes(platform: NodeJS.Platform = process.platform): boolean {
  return platform !== 'win32';
}

/**
 * Whether a folder is shared through its group: the group may write to it (2770, 0770, 0775), as a
 * team's HR folder or state directory is, so its members must read what the tool writes there (and,
 * for a state directory, take the lock). A folder the group can only read (0755, what a umask of 022
 * makes of every folder) is not shared: files with names and emails stay 0600 in it.
 */
export function sharedWithGroup(mode: number): boolean {
  return (mode & 0o020) !== 0;
}
