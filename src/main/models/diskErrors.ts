import { AppError } from '../../shared/errors'

const DISK_FULL = new Set(['ENOSPC', 'EDQUOT'])

/** An error of the file system (it has an errno code), as opposed to a network or validation error. */
export function isFsError(error: unknown): error is NodeJS.ErrnoException {
  return (
    error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && 'syscall' in error
  )
}

/**
 * The user-facing error for a failed write into the models folder, after the partial file was deleted:
 * a full disk (or quota) says to free space, anything else to check the folder.
 */
export function diskWriteError(error: NodeJS.ErrnoException, dir: string, action: string): AppError {
  if (DISK_FULL.has(error.code ?? ''))
    return new AppError(
      'TOO_LARGE',
      `The disk is full (${error.code}): ${action} stopped while writing to ${dir}. The partial file was deleted to give the space back; free some space on that disk, then try again.`,
      { cause: error },
    )
  return new AppError(
    'UNAVAILABLE',
    `Could not write to ${dir} (${error.code ?? error.message}): ${action} stopped. The partial file was deleted; check that the folder is writable, then try again.`,
    { cause: error },
  )
}
