import { isAppError } from '../../shared/errors'

const MAX_LENGTH = 400
// Stands in for the workspace root while host paths are redacted (a private-use character).
const ROOT_MARK = '\uE000'
// Host paths a library error may carry: POSIX absolute paths with two or more segments, Windows drive
// and UNC paths, file: URLs.
const POSIX_PATH = /(^|[\s'"`(=:])\/(?:[^\s'"`/:,;()]+\/)+[^\s'"`:,;()]*/g
const WINDOWS_PATH = /\b[A-Za-z]:\\[^\s'"`,;()]*/g
const UNC_PATH = /\\\\[^\s'"`,;()]+/g
const FILE_URL = /file:\/\/[^\s'"`,;()]*/g

/** Removes host paths from text meant for a model or user. */
export function redactHostPaths(text: string): string {
  return text
    .replace(FILE_URL, '<path>')
    .replace(WINDOWS_PATH, '<path>')
    .replace(UNC_PATH, '<path>')
    .replace(POSIX_PATH, '$1<path>')
}

/**
 * The message of anything a method threw, as a model may see it: AppError messages are written for
 * models and pass as they are; other errors keep their first line, with host paths removed.
 */
export function errorMessage(error: unknown, workspaceRoot?: string): string {
  if (isAppError(error)) return error.message
  const raw = error instanceof Error ? error.message : typeof error === 'string' ? error : 'unknown error'
  let firstLine = raw.split('\n')[0]?.trim() || 'unknown error'
  // Paths inside the workspace can be shown as agent paths; everything else host-like is hidden.
  if (workspaceRoot && workspaceRoot.length > 1) {
    firstLine = firstLine.split(workspaceRoot.replace(/[\\/]+$/, '')).join(ROOT_MARK)
  }
  const clean = redactHostPaths(firstLine).replace(
    new RegExp(`${ROOT_MARK}([\\\\/][^\\s'"\`,;()]*)?`, 'g'),
    (_m, rest: string | undefined) => (rest ? rest.replace(/\\/g, '/') : '/'),
  )
  return clean.length > MAX_LENGTH ? `${clean.slice(0, MAX_LENGTH - 3)}...` : clean
}
