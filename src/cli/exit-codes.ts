// The exit codes, in the words --help shows them (the uploads' help and the program's): a file of its own
// so that neither help loads the other's command.
export const EXIT_CODES = `
Exit codes:
  0 uploaded, or a dry run that found nothing that would stop a real run
  1 internal error (a bug)           2 usage or configuration error
  3 invalid input; nothing sent      4 refused by a safety guard; nothing sent
  5 rejected by the service          6 unreachable, or outcome unknown after retries
  7 the answer does not confirm the upload
  8 only with --detailed-exitcode: succeeded, and something changed
  9 uploaded, with removals held back (--hold-removals)    130 interrupted`;
