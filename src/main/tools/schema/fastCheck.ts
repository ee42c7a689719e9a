import { z } from 'zod'
import { toJsonSchema } from './jsonSchema'

/**
 * `schema`, with `accepts` deciding first: a value it accepts is taken as it is, anything else is
 * parsed by `schema`, whose issues (paths and messages) are reported as zod's own. Models see
 * `schema`'s JSON Schema. For large inputs zod would walk element by element: its first parse of a
 * 10,000-cell block was half of a spreadsheet write's first call. Only for a schema whose parse returns
 * the value unchanged (no defaults, transforms or coercion), and an `accepts` that accepts nothing the
 * schema refuses.
 */
export function withFastCheck<T>(
  schema: z.ZodType<T>,
  accepts: (value: unknown) => value is T,
): z.ZodType<T> {
  const fast = z.any().superRefine((value, ctx) => {
    if (accepts(value)) return
    const parsed = schema.safeParse(value)
    if (!parsed.success) for (const issue of parsed.error.issues) ctx.addIssue({ ...issue })
  })
  return fast.meta(toJsonSchema(schema, 'input')) as unknown as z.ZodType<T>
}
