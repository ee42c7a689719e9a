import { AppError, type ErrorCode } from '../../shared/errors'

/** Every rule a path can break; the name appears in the error so a model can correct itself. */
export type PathRule =
  | 'empty-path'
  | 'not-a-string'
  | 'control-character'
  | 'invisible-character'
  | 'bidi-control'
  | 'invalid-unicode'
  | 'backslash'
  | 'unc-path'
  | 'drive-letter'
  | 'url-scheme'
  | 'percent-encoding'
  | 'home-shortcut'
  | 'colon'
  | 'look-alike-character'
  | 'leaves-root'
  | 'name-too-long'
  | 'path-too-long'
  | 'reserved-name'
  | 'trailing-dot-or-space'
  | 'internal-folder'
  | 'symlink-escape'
  | 'symlink-dangling'
  | 'root-not-allowed'

/** A refused path. Says which rule and what to do instead; never echoes a host path. */
export class PathRefusedError extends AppError {
  readonly rule: PathRule

  constructor(rule: PathRule, message: string) {
    super('FORBIDDEN', `Path refused (${rule}): ${message}`)
    this.name = 'PathRefusedError'
    this.rule = rule
  }
}

export function refuse(rule: PathRule, message: string): never {
  throw new PathRefusedError(rule, message)
}

export function workspaceError(code: ErrorCode, message: string): AppError {
  return new AppError(code, message)
}

const messagesByErrno: Record<string, [ErrorCode, string]> = {
  ENOENT: ['NOT_FOUND', 'does not exist'],
  ENOTDIR: ['NOT_FOUND', 'does not exist (a parent is a file, not a folder)'],
  EISDIR: ['CONFLICT', 'is a folder, not a file'],
  EEXIST: ['CONFLICT', 'already exists'],
  ENOTEMPTY: ['CONFLICT', 'is a folder that is not empty'],
  EACCES: ['FORBIDDEN', 'cannot be accessed (permission denied)'],
  EPERM: ['FORBIDDEN', 'cannot be changed (operation not permitted)'],
  ELOOP: ['FORBIDDEN', 'is a symbolic link, which cannot be opened here'],
  ENAMETOOLONG: ['VALIDATION_FAILED', 'has a name that is too long'],
  ENOSPC: ['UNAVAILABLE', 'could not be written: the disk is full'],
  EROFS: ['FORBIDDEN', 'is on a read-only disk'],
  EBUSY: ['CONFLICT', 'is busy (open in another program?)'],
  EMFILE: ['UNAVAILABLE', 'could not be opened: too many open files'],
}

/**
 * Turns a Node fs error into an AppError that names the agent path. The original message is dropped
 * because it contains the host path.
 */
export function fromFsError(error: unknown, agentPath: string): AppError {
  if (error instanceof AppError) return error
  const errno = typeof error === 'object' && error && 'code' in error ? String(error.code) : ''
  const known = messagesByErrno[errno]
  if (known) return new AppError(known[0], `${agentPath} ${known[1]}.`)
  return new AppError('INTERNAL', `${agentPath}: the file operation failed${errno ? ` (${errno})` : ''}.`)
}

export function errnoOf(error: unknown): string | undefined {
  return typeof error === 'object' && error && 'code' in error ? String(error.code) : undefined
}
