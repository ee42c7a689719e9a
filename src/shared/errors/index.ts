export type { ErrorCode, ErrorPayload, ValidationIssue } from './appError'
export { AppError, ERROR_CODES, isAppError } from './appError'
export { ErrorCodeSchema, ErrorPayloadSchema, ValidationIssueSchema } from './errorSchemas'
export { httpStatusFor } from './httpStatus'
