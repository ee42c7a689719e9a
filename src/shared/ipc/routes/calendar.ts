import { z } from 'zod'
import { CalendarAccount, CalendarAccountName } from '../../settings/sections/calendar'
import { route } from '../defineContract'

export const CalendarTestResult = z.object({
  ok: z.boolean(),
  message: z.string(),
  calendars: z.array(z.string()),
})
export type CalendarTestResult = z.infer<typeof CalendarTestResult>

export const calendarRoutes = {
  'calendar.test': route({
    summary:
      'Logs in to a CalDAV account as the Settings form shows it (the saved password unless one is typed) and lists its calendars; nothing is stored.',
    input: z.object({
      name: CalendarAccountName,
      account: CalendarAccount,
      /** A password typed but not saved yet; never stored by the test. */
      password: z.string().min(1).max(16_384).optional(),
    }),
    output: CalendarTestResult,
  }),
}
