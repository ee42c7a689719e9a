import { z } from 'zod'

export const Theme = z.enum(['system', 'light', 'dark'])

export const UiSettings = z.looseObject({
  theme: Theme.default('system'),
})
