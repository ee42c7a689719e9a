import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { type CalendarEnvironment, loadCalendarToolset } from '../../../src/main/calendar'
import { createToolSession, invoke, type ToolResult, type ToolSession } from '../../../src/main/tools'
import { createWorkspace, type Workspace } from '../../../src/main/workspace'
import {
  type CalendarSettings,
  CalendarSettings as CalendarSettingsSchema,
} from '../../../src/shared/settings'
import { tempDirs } from '../../support/tempDir'

export interface CalendarHarness {
  root: string
  workspace: Workspace
  session: ToolSession
  settings: CalendarSettings
  passwords: Map<string, string>
  env: CalendarEnvironment
  call<T = Record<string, unknown>>(name: string, args?: Record<string, unknown>): Promise<T>
  attempt(name: string, args?: Record<string, unknown>): Promise<ToolResult>
  close(): Promise<void>
}

/** A workspace and a tool session with the `calendar` toolset; the user's zone is Europe/Paris unless told. */
export async function openCalendarHarness(
  settings: Partial<CalendarSettings> = {},
): Promise<CalendarHarness> {
  const dirs = tempDirs('bureau-calendar-')
  const root = join(await dirs.make(), 'workspace')
  await mkdir(root)
  const workspace = createWorkspace({ root })
  const parsed = CalendarSettingsSchema.parse({ timeZone: 'Europe/Paris', ...settings })
  const passwords = new Map<string, string>()
  const env: CalendarEnvironment = {
    settings: () => parsed,
    password: async (name) => passwords.get(name),
    requestTimeoutMs: 5_000,
  }
  const session = createToolSession({ toolsets: [await loadCalendarToolset(env)], workspace })
  const attempt = (name: string, args: Record<string, unknown> = {}) => invoke(session, name, args)
  return {
    root,
    workspace,
    session,
    settings: parsed,
    passwords,
    env,
    attempt,
    async call<T>(name: string, args: Record<string, unknown> = {}) {
      const result = await attempt(name, args)
      if (!result.ok) throw new Error(`${name} failed: ${result.error}`)
      return result.value as T
    },
    async close() {
      await session.dispose()
      await workspace.close()
      await dirs.cleanup()
    },
  }
}

export interface EventTime {
  local: string
  time_zone: string
  utc?: string
}
export interface EventOut {
  uid: string
  summary: string
  start: EventTime
  end: EventTime
  all_day: boolean
  location?: string
  description?: string
  attendees: Array<{ email: string; name?: string; status?: string }>
  recurrence?: { rules: string[]; rdates: string[]; exdates: string[] }
  recurrence_id?: string
  transparent?: boolean
}
export interface Receipt {
  calendar: string
  event: EventOut
  stored: { path?: string; url?: string; backup?: string; version?: string; etag?: string }
  conflicts?: EventOut[]
}
export interface Listing {
  total: number
  events: EventOut[]
  next_offset?: number
}
