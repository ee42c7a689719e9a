import type { CalendarSettings } from '../../shared/settings'

/** What the calendar service needs from the host: the `calendar` settings and the accounts' passwords. */
export interface CalendarEnvironment {
  settings(): CalendarSettings
  /** The decrypted password of a CalDAV account (`calendar.accounts.<name>.password`), if one is stored. */
  password(account: string): Promise<string | undefined>
  /** How long one CalDAV request may take, in milliseconds (tests shorten it); default 30 s. */
  requestTimeoutMs?: number
}

/** A CalDAV account ready to connect: fields checked, the password decrypted. */
export interface ResolvedCalendarAccount {
  name: string
  url: string
  user: string
  password: string
}
