import type { ErrorCode } from './appError'

const statusByCode: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400,
  UNSUPPORTED: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  UNKNOWN_ROUTE: 404,
  CONFLICT: 409,
  TOO_LARGE: 413,
  RATE_LIMITED: 429,
  CANCELLED: 499,
  HANDLER_FAILED: 500,
  INTERNAL: 500,
  UNAVAILABLE: 503,
  TIMEOUT: 504,
}

export function httpStatusFor(code: ErrorCode): number {
  return statusByCode[code]
}
