/** Error codes shared by every transport; HTTP status follows from the code. */
export const ERROR_CODES = [
  'VALIDATION_FAILED',
  'UNKNOWN_ROUTE',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'CANCELLED',
  'TIMEOUT',
  'UNAVAILABLE',
  'TOO_LARGE',
  'RATE_LIMITED',
  'UNSUPPORTED',
  'HANDLER_FAILED',
  'INTERNAL',
] as const
export type ErrorCode = (typeof ERROR_CODES)[number]

export interface ValidationIssue {
  path: Array<string | number>
  message: string
  code?: string
}

/** The wire shape of an error: what the renderer, the CLI and HTTP clients see. */
export interface ErrorPayload {
  code: ErrorCode
  message: string
  issues?: ValidationIssue[]
}

/**
 * An error whose message is safe to show to a user or a model: short, actionable,
 * no host path and no stack trace.
 */
export class AppError extends Error {
  readonly code: ErrorCode
  readonly issues: ValidationIssue[] | undefined

  /** `options.cause`: the error this one explains (kept for logs; it never crosses the wire). */
  constructor(code: ErrorCode, message: string, issuesOrOptions?: ValidationIssue[] | ErrorOptions) {
    super(message, Array.isArray(issuesOrOptions) ? undefined : issuesOrOptions)
    this.name = 'AppError'
    this.code = code
    this.issues = Array.isArray(issuesOrOptions) ? issuesOrOptions : undefined
  }

  toPayload(): ErrorPayload {
    return this.issues
      ? { code: this.code, message: this.message, issues: this.issues }
      : { code: this.code, message: this.message }
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError
}
