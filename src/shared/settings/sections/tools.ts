import { z } from 'zod'

export const ToolSettings = z.looseObject({
  /** Debounce for hot-adding plugins from the tools folders. */
  watchDebounceMs: z.number().int().min(0).max(600_000).default(30_000),
  /** An extra folder of plugin toolsets (absolute path); `null`: only the shipped and data-dir folders. */
  extraFolder: z.string().trim().min(1).nullable().default(null),
})
