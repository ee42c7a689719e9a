import { z } from 'zod'

/** The folder the agent works in. `null`: `--workspace`, then `BUREAU_WORKSPACE`, then ~/Bureau. */
export const WorkspaceSettings = z.looseObject({
  folder: z.string().trim().min(1).nullable().default(null),
  /** Numbered backups kept per file (`report.001.bak`…); the oldest beyond this are pruned. */
  backupsToKeep: z.number().int().min(0).max(10_000).default(20),
})
