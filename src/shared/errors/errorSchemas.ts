import { z } from 'zod'
import { ERROR_CODES } from './appError'

export const ErrorCodeSchema = z.enum(ERROR_CODES)

export const ValidationIssueSchema = z.object({
  path: z.array(z.union([z.string(), z.number()])),
  message: z.string(),
  code: z.string().optional(),
})

export const ErrorPayloadSchema = z.object({
  code: ErrorCodeSchema,
  message: z.string(),
  issues: z.array(ValidationIssueSchema).optional(),
})
