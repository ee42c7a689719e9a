import { z } from 'zod'

/** The folder the agent works in. `null`: `--workspace`, then `BUREAU_WORKSPACE`, then ~/Bureau. */
export const WorkspaceSettings = z.looseObject({
  folder: z.string().trim().min(1).nullable().default(null),
})
