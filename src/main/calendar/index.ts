export {
  DEFAULT_WORKING_HOURS,
  findOverlaps,
  freeSlots,
  type Interval,
  mergeBusy,
  noOverlaps,
  overlaps,
  type WorkingHours,
  workingWindows,
} from './slots'
export type { CalendarEnvironment } from './types'

/** The `calendar` toolset, loaded on demand (ical.js and tsdav load with it). */
export async function loadCalendarToolset(env: import('./types').CalendarEnvironment) {
  const { createCalendarToolset } = await import('./toolset/calendarToolset')
  return createCalendarToolset(env)
}

/** The events of an iCalendar text that overlap a range, recurring ones expanded (for checkers and tests). */
export async function icsOccurrences(text: string, fromMs: number, toMs: number, userZone: string) {
  const { parseCalendar } = await import('./ics/document')
  const { occurrencesIn } = await import('./events')
  return occurrencesIn(parseCalendar(text, 'calendar'), fromMs, toMs, userZone)
}

/** Logs in to a CalDAV account (saved, or a draft with its password) and lists its calendars. */
export async function testCalendarAccount(
  ...args: Parameters<typeof import('./testConnection').testCalendarAccount>
): ReturnType<typeof import('./testConnection').testCalendarAccount> {
  const { testCalendarAccount: test } = await import('./testConnection')
  return test(...args)
}

/** IPC handlers of the calendar service (Settings → Calendar's Test connection). */
export function calendarHandlers(env: import('./types').CalendarEnvironment) {
  return {
    'calendar.test': async (input: {
      name: string
      account: import('../../shared/settings').CalendarAccount
      password?: string | undefined
    }) => testCalendarAccount(env, input.name, input.account, input.password),
  }
}
