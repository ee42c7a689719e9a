import { AppError } from '../../shared/errors'
import type { ToolContext } from '../tools'
import { resolveCalendarAccount } from './accounts'
import { applyFields, type EventFields, newEvent, parseDate, parseDateTime } from './build'
import { connect } from './caldav/client'
import { type EventView, eventView, type Occurrence, occurrencesIn, utcText } from './events'
import { eventsOf } from './ics/document'
import { isCalDavName } from './names'
import {
  DEFAULT_WORKING_HOURS,
  freeSlots,
  overlaps,
  type WorkingHours,
  wallTime,
  workingWindows,
  zonedInstant,
} from './slots'
import { type CalendarStore, calDavStore, fileStore, type StoredEvent } from './stores'
import type { CalendarEnvironment } from './types'
import { requireZone, systemZone } from './zones'

const DAY = 86_400_000
/** The longest range one listing or slot search covers. */
const MAX_RANGE_DAYS = 366 * 2
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/

/** A range's instants: a date alone is the whole day in the zone (`to` included). */
export function rangeOf(from: string, to: string, zone: string): { fromMs: number; toMs: number } {
  const instant = (text: string, end: boolean) => {
    if (DATE_ONLY.test(text.trim())) {
      const d = parseDate(text)
      return zonedInstant({ year: d.year, month: d.month, day: d.day + (end ? 1 : 0) }, zone)
    }
    return parseDateTime(text, zone).toUnixTime() * 1000
  }
  const fromMs = instant(from, false)
  const toMs = instant(to, true)
  if (toMs <= fromMs)
    throw new AppError('VALIDATION_FAILED', `The range ends (${to}) before it starts (${from}).`)
  if (toMs - fromMs > MAX_RANGE_DAYS * DAY)
    throw new AppError(
      'VALIDATION_FAILED',
      `The range is longer than ${MAX_RANGE_DAYS} days: ask for a shorter one.`,
    )
  return { fromMs, toMs }
}

type Listed = EventView & { calendar: string }

const busy = (o: Occurrence) => !o.view.transparent && o.view.status?.toUpperCase() !== 'CANCELLED'

/** What the `calendar` toolset's methods do; loaded when the first one runs (ical.js, tsdav, zone data). */
export function calendarOperations(env: CalendarEnvironment) {
  const userZone = () => requireZone(env.settings().timeZone || systemZone())
  const store = (ctx: ToolContext, name: string): CalendarStore =>
    isCalDavName(name) ? calDavStore(env, name, userZone()) : fileStore(ctx.workspace, name, userZone())

  async function occurrences(ctx: ToolContext, name: string, fromMs: number, toMs: number) {
    const parsed = await store(ctx, name).read({ fromMs, toMs })
    const all: Occurrence[] = []
    for (const p of parsed) all.push(...occurrencesIn(p, fromMs, toMs, userZone()))
    return all.sort((a, b) => a.startMs - b.startMs)
  }

  /** Other busy events of the calendar during a stored event's first occurrence. */
  async function withConflicts(ctx: ToolContext, calendar: string, receipt: StoredEvent) {
    const { event } = receipt
    let conflicts: Listed[] = []
    if (!event.all_day && event.start.utc && event.end.utc && !event.transparent) {
      const startMs = Date.parse(event.start.utc)
      const endMs = Date.parse(event.end.utc)
      const found = await occurrences(ctx, calendar, startMs, endMs).catch(() => [])
      conflicts = found
        .filter((o) => o.view.uid !== event.uid && busy(o) && overlaps(o, { startMs, endMs }))
        .map((o) => ({ ...o.view, calendar }))
    }
    return { calendar, ...receipt, ...(conflicts.length ? { conflicts } : {}) }
  }

  return {
    async listCalendars(ctx: ToolContext) {
      const calendars: Array<{ calendar: string; kind: 'file' | 'caldav'; description?: string }> = []
      if (await ctx.workspace.exists('/calendar')) {
        const listing = await ctx.workspace.list('/calendar', { glob: '*.ics', recursive: true, limit: 500 })
        for (const entry of listing.entries)
          if (entry.type === 'file') calendars.push({ calendar: entry.path, kind: 'file' })
      }
      const unreachable: Array<{ account: string; error: string }> = []
      for (const account of Object.keys(env.settings().accounts).sort()) {
        try {
          const connection = await connect(env, await resolveCalendarAccount(env, account))
          for (const c of await connection.calendars())
            calendars.push({
              calendar: `${account}:${c.name}`,
              kind: 'caldav',
              ...(c.description ? { description: c.description } : {}),
            })
        } catch (error) {
          unreachable.push({ account, error: error instanceof Error ? error.message : String(error) })
        }
      }
      return { time_zone: userZone(), calendars, ...(unreachable.length ? { unreachable } : {}) }
    },

    async listEvents(
      args: {
        calendar: string
        from: string
        to: string
        time_zone?: string | undefined
        limit: number
        offset: number
      },
      ctx: ToolContext,
    ) {
      const zone = requireZone(args.time_zone ?? userZone())
      const { fromMs, toMs } = rangeOf(args.from, args.to, zone)
      const all = await occurrences(ctx, args.calendar, fromMs, toMs)
      const end = args.offset + args.limit
      return {
        calendar: args.calendar,
        time_zone: zone,
        total: all.length,
        events: all.slice(args.offset, end).map((o) => ({ ...o.view, calendar: args.calendar })),
        ...(end < all.length ? { next_offset: end } : {}),
      }
    },

    async getEvent(args: { calendar: string; uid: string }, ctx: ToolContext) {
      for (const parsed of await store(ctx, args.calendar).read()) {
        const [master, ...exceptions] = eventsOf(parsed, args.uid)
        if (master)
          return {
            calendar: args.calendar,
            event: eventView(master, args.calendar, userZone()),
            exceptions: exceptions.map((e) => eventView(e, args.calendar, userZone())),
          }
      }
      throw new AppError(
        'NOT_FOUND',
        `${args.calendar} has no event with uid "${args.uid}": list_events shows the uids.`,
      )
    },

    async createEvent(args: EventFields & { calendar: string }, ctx: ToolContext) {
      const { calendar, ...fields } = args
      return withConflicts(ctx, calendar, await store(ctx, calendar).create(newEvent(fields, userZone())))
    },

    async updateEvent(args: EventFields & { calendar: string; uid: string }, ctx: ToolContext) {
      const { calendar, uid, ...fields } = args
      const zone = userZone()
      const receipt = await store(ctx, calendar).update(uid, (component) =>
        applyFields(component, fields, zone),
      )
      return withConflicts(ctx, calendar, receipt)
    },

    async deleteEvent(args: { calendar: string; uid: string }, ctx: ToolContext) {
      return { calendar: args.calendar, uid: args.uid, ...(await store(ctx, args.calendar).remove(args.uid)) }
    },

    async findFreeSlots(
      args: {
        calendars?: string[] | undefined
        people?: string[] | undefined
        from: string
        to: string
        duration: number
        working_hours?: WorkingHours | 'any' | undefined
        time_zone?: string | undefined
        limit: number
      },
      ctx: ToolContext,
    ) {
      const names = [
        ...(args.calendars ?? []),
        ...(args.people ?? []).map((p) => `/calendar/${p.trim()}.ics`),
      ]
      if (names.length === 0) throw new AppError('VALIDATION_FAILED', 'Give calendars, people or both.')
      const zone = requireZone(args.time_zone ?? userZone())
      const { fromMs, toMs } = rangeOf(args.from, args.to, zone)
      const busyOnes: Occurrence[] = []
      for (const name of names) {
        if (!isCalDavName(name) && !(await ctx.workspace.exists(name)))
          throw new AppError('NOT_FOUND', `There is no calendar ${name}: list_calendars shows them.`)
        busyOnes.push(...(await occurrences(ctx, name, fromMs, toMs)).filter(busy))
      }
      const hours = args.working_hours === 'any' ? null : (args.working_hours ?? DEFAULT_WORKING_HOURS)
      const slots = freeSlots(workingWindows(fromMs, toMs, zone, hours), busyOnes, args.duration)
      return {
        time_zone: zone,
        calendars: names,
        duration: args.duration,
        slots: slots.slice(0, args.limit).map((s) => ({
          start: wallTime(s.startMs, zone),
          end: wallTime(s.endMs, zone),
          start_utc: utcText(s.startMs),
          end_utc: utcText(s.endMs),
          minutes: Math.round((s.endMs - s.startMs) / 60_000),
        })),
        busy: busyOnes.length,
        ...(slots.length > args.limit ? { more: true } : {}),
      }
    },

    async checkConflicts(
      args: { calendar: string; start: string; end: string; time_zone?: string | undefined },
      ctx: ToolContext,
    ) {
      const zone = requireZone(args.time_zone ?? userZone())
      const { fromMs, toMs } = rangeOf(args.start, args.end, zone)
      const found = (await occurrences(ctx, args.calendar, fromMs, toMs)).filter(
        (o) => busy(o) && overlaps(o, { startMs: fromMs, endMs: toMs }),
      )
      return {
        calendar: args.calendar,
        free: found.length === 0,
        conflicts: found.map((o) => ({ ...o.view, calendar: args.calendar })),
      }
    },
  }
}
