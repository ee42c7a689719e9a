import { z } from 'zod'

export const Theme = z.enum(['system', 'light', 'dark'])

/** The first-run guide's three paths. */
export const SetupChoice = z.enum(['local', 'ollama', 'cloud'])

export const UiSettings = z.looseObject({
  theme: Theme.default('system'),
  /** The path last chosen in the first-run guide (opened first next time). */
  setupChoice: SetupChoice.nullable().default(null),
  /** A provider answered a connection test once: the first-run guide is never shown again. */
  providerWorked: z.boolean().default(false),
  /** The conversation open when the app was last used; reopened on start. */
  lastConversationId: z.string().max(64).nullable().default(null),
})
