import { AppError } from '../../shared/errors'

function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code
}

const WHAT: Record<string, string> = {
  EISDIR: 'is a folder, not a file',
  EACCES: 'cannot be read or written (permission denied)',
  EPERM: 'cannot be read or written (permission denied)',
  ELOOP: 'is a symbolic link that points back to itself',
  ENOTDIR: 'is inside something that is not a folder',
  EBUSY: 'is in use by another program',
}

/**
 * A file of the data folder that cannot be used, named with the problem and what to do, instead of the
 * raw system error (`EISDIR: illegal operation on a directory`). `todo` finishes the sentence.
 */
export function fileProblem(path: string, error: unknown, todo: string): AppError {
  const code = errnoOf(error)
  const what =
    (code && WHAT[code]) ??
    `cannot be used (${code ?? (error instanceof Error ? error.message : String(error))})`
  return new AppError('UNAVAILABLE', `${path} ${what}. ${todo}`, { cause: error })
}

/** Errors of the file system (an errno code), as opposed to the store's own. */
export function isFsError(error: unknown): boolean {
  return typeof errnoOf(error) === 'string' && !(error instanceof AppError)
}
