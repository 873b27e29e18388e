/** Node's error code (`ENOENT`, `EACCES` …) when `err` is a system error, else undefined. */
export function errnoCode(err: unknown): string | undefined {
  return err instanceof Error && 'code' in err && typeof err.code === 'string' ? err.code : undefined
}

/** Whether `err` says the path is not there: no such file, or a part of the path is a file (ENOTDIR). */
export function isMissing(err: unknown): boolean {
  const code = errnoCode(err)
  return code === 'ENOENT' || code === 'ENOTDIR'
}

/** A system error's code (the short reason a person can look up), else its message. */
export function errnoText(err: unknown): string {
  return errnoCode(err) ?? (err instanceof Error ? err.message : String(err))
}
