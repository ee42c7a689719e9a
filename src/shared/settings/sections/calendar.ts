import { z } from 'zod'

/** Account names: the `<account>` of a `<account>:<calendar>` argument and the key of its encrypted password. */
export const CalendarAccountName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'Use lower-case letters, digits, "-" or "_" (up to 64), e.g. work.')

/**
 * One CalDAV account. Fields have defaults so a hand-edited file never invalidates the settings; the
 * calendar service says what is missing when the account is used. The password is a secret
 * (`calendar.accounts.<name>.password`), never stored here.
 */
export const CalendarAccount = z.looseObject({
  /** The server's address (its root, or the calendar home); discovery finds the calendars. */
  url: z.string().trim().max(2000).default(''),
  user: z.string().max(320).default(''),
})
export type CalendarAccount = z.output<typeof CalendarAccount>

/** The `calendar` toolset: the user's time zone and CalDAV accounts. */
export const CalendarSettings = z.looseObject({
  /** IANA zone times are read in when a call names none; empty: the system's zone. */
  timeZone: z.string().max(100).default(''),
  accounts: z.record(CalendarAccountName, CalendarAccount).default({}),
})
export type CalendarSettings = z.output<typeof CalendarSettings>

/** The name of a CalDAV account's encrypted password. */
export function calendarPasswordSecret(account: string): string {
  return `calendar.accounts.${account}.password`
}

/** The passwords of the accounts `before` has and `after` does not. */
export function removedCalendarPasswords(before: CalendarSettings, after: CalendarSettings): string[] {
  return Object.keys(before.accounts)
    .filter((name) => !Object.hasOwn(after.accounts, name))
    .map(calendarPasswordSecret)
}
