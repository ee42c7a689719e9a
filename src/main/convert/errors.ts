import { AppError, type ErrorCode } from '../../shared/errors'

/** Why a file could not be converted; callers can branch on it, users read the message. */
export type ConvertFailure =
  | 'not_a_document'
  | 'unsupported'
  | 'damaged'
  | 'encrypted'
  | 'too_large'
  | 'timeout'
  | 'cancelled'
  | 'failed'

const codeByFailure: Record<ConvertFailure, ErrorCode> = {
  not_a_document: 'UNSUPPORTED',
  unsupported: 'UNSUPPORTED',
  damaged: 'VALIDATION_FAILED',
  encrypted: 'UNSUPPORTED',
  too_large: 'TOO_LARGE',
  timeout: 'TIMEOUT',
  cancelled: 'CANCELLED',
  failed: 'HANDLER_FAILED',
}

/** A conversion failure naming the file (its base name only, never a host path) and the reason. */
export class ConvertError extends AppError {
  readonly fileName: string
  readonly failure: ConvertFailure
  readonly reason: string

  /** `options.cause`: the error behind the failure (a library's, or the FormatProblem it was described as). */
  constructor(fileName: string, failure: ConvertFailure, reason: string, options?: ErrorOptions) {
    const shown = displayName(fileName)
    super(codeByFailure[failure], `Cannot convert "${shown}": ${reason}`, options)
    this.name = 'ConvertError'
    this.fileName = shown
    this.failure = failure
    this.reason = reason
  }
}

export function isConvertError(error: unknown): error is ConvertError {
  return error instanceof ConvertError
}

/**
 * Thrown inside format modules; the registry adds the file name. Not an AppError: it never leaves the
 * convert service, which turns it into a ConvertError once the file's name is known.
 */
export class FormatProblem extends Error {
  readonly failure: ConvertFailure
  constructor(failure: ConvertFailure, reason: string, options?: ErrorOptions) {
    super(reason, options)
    this.name = 'FormatProblem'
    this.failure = failure
  }
}

export function displayName(name: string): string {
  const base = name.split(/[\\/]/).pop() || name
  return base.length > 120 ? `${base.slice(0, 117)}...` : base
}
