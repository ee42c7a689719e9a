import { AppError } from '../../shared/errors'
import type { CalendarAccount } from '../../shared/settings'
import { missingCalendarField } from './accounts'
import { connect } from './caldav/client'
import type { CalendarEnvironment } from './types'

export interface CalendarCheck {
  ok: boolean
  /** What happened, in one line: the calendars found, or the error to fix. */
  message: string
  calendars: string[]
}

/** Logs in to a CalDAV account (saved or a draft from the Settings form) and lists its calendars; changes nothing. */
export async function testCalendarAccount(
  env: CalendarEnvironment,
  name: string,
  account: CalendarAccount,
  password: string | undefined,
): Promise<CalendarCheck> {
  const pass = password ?? (await env.password(name))
  const missing = missingCalendarField(account) ?? (pass ? undefined : 'a password')
  if (missing) return { ok: false, message: `The account needs ${missing}.`, calendars: [] }
  try {
    const connection = await connect(env, {
      name,
      url: account.url,
      user: account.user,
      password: pass ?? '',
    })
    const calendars = (await connection.calendars()).map((c) => c.name)
    return {
      ok: true,
      message: `Logged in to ${new URL(account.url).host}; ${calendars.length} calendar${calendars.length === 1 ? '' : 's'}${calendars.length ? `: ${calendars.join(', ')}` : ''}.`,
      calendars,
    }
  } catch (error) {
    return {
      ok: false,
      message: error instanceof AppError ? error.message : String((error as Error)?.message ?? error),
      calendars: [],
    }
  }
}
