import { z } from 'zod'

export const UncalculatedFormula = z.object({ sheet: z.string(), cell: z.string(), reason: z.string() })
