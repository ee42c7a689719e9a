import { z } from 'zod'

export const Theme = z.enum(['system', 'light', 'dark'])

export const UiSettings = z.looseObject({
  theme: Theme.default('system'),
  /** The conversation open when the app was last used; reopened on start. */
  lastConversationId: z.string().max(64).nullable().default(null),
})
