import ICAL from 'ical.js'
import { AppError } from '../../shared/errors'
import type { ParsedCalendar, ParsedEvent } from './ics/document'
import { icalZone } from './zones'

/** A start or end: the wall time in its zone, and the instant in UTC (timed events). */
export interface EventTime {
  /** `2026-07-14T10:00:00`, or `2026-07-14` for all-day events (whose end is their last day). */
  local: string
  /** The TZID, `UTC`, or `floating` (read in the user's zone). */
  time_zone: string
  /** `2026-07-14T08:00:00Z`; absent for all-day events. */
  utc?: string
}

export interface Attendee {
  email: string
  name?: string
  status?: string
}

/** An event (or one occurrence of a recurring event) as the toolset reports it. */
export interface EventView {
  uid: string
  summary: string
  start: EventTime
  end: EventTime
  all_day: boolean
  location?: string
  description?: string
  attendees: Attendee[]
  organizer?: string
  /** RRULE/RDATE/EXDATE of a recurring event. */
  recurrence?: { rules: string[]; rdates: string[]; exdates: string[] }
  /** Which occurrence this is (its original start), for occurrences of recurring events. */
  recurrence_id?: string
  status?: string
  /** TRANSP:TRANSPARENT: shown as free, never a conflict. */
  transparent?: boolean
}

/** An occurrence in a range: the view, the UTC interval it blocks, and its calendar. */
export interface Occurrence {
  view: EventView
  startMs: number
  endMs: number
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

function wall(time: ICAL.Time): string {
  const date = `${pad(time.year, 4)}-${pad(time.month)}-${pad(time.day)}`
  return time.isDate ? date : `${date}T${pad(time.hour)}:${pad(time.minute)}:${pad(time.second)}`
}

export function utcText(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`
}

function isFloating(time: ICAL.Time): boolean {
  return !time.zone || time.zone === ICAL.Timezone.localTimezone || time.zone.tzid === 'floating'
}

/** The instant of a time: floating times and dates are read in `userZone`. */
export function instantOf(time: ICAL.Time, userZone: string): number {
  if (time.isDate || isFloating(time)) {
    const zone = icalZone(userZone) ?? ICAL.Timezone.utcTimezone
    const local = ICAL.Time.fromData(
      {
        year: time.year,
        month: time.month,
        day: time.day,
        hour: time.hour,
        minute: time.minute,
        second: time.second,
        isDate: false,
      },
      zone,
    )
    return local.toUnixTime() * 1000
  }
  return time.toUnixTime() * 1000
}

function timeView(time: ICAL.Time, userZone: string, end = false): EventTime {
  if (time.isDate) {
    // All-day ends are exclusive in the file; people (and models) name the last day.
    const day = time.clone()
    if (end) day.adjust(-1, 0, 0, 0)
    return { local: wall(day), time_zone: 'floating' }
  }
  const zone = isFloating(time) ? 'floating' : time.zone.tzid === 'UTC' ? 'UTC' : time.zone.tzid
  return { local: wall(time), time_zone: zone, utc: utcText(instantOf(time, userZone)) }
}

function text(component: ICAL.Component, name: string): string | undefined {
  const value = component.getFirstPropertyValue(name)
  return value === null || value === undefined ? undefined : String(value)
}

function attendees(component: ICAL.Component): Attendee[] {
  return component.getAllProperties('attendee').map((property) => {
    const email = String(property.getFirstValue() ?? '').replace(/^mailto:/i, '')
    const name = property.getParameter('cn')
    const status = property.getParameter('partstat')
    return {
      email,
      ...(typeof name === 'string' && name ? { name } : {}),
      ...(typeof status === 'string' && status ? { status } : {}),
    }
  })
}

function recurrence(component: ICAL.Component): EventView['recurrence'] {
  const rules = component.getAllProperties('rrule').map((p) => String(p.getFirstValue()))
  const dates = (name: string) =>
    component
      .getAllProperties(name)
      .flatMap((p) => p.getValues().map((v) => (v instanceof ICAL.Time ? wall(v) : String(v))))
  const rdates = dates('rdate')
  const exdates = dates('exdate')
  return rules.length + rdates.length + exdates.length > 0 ? { rules, rdates, exdates } : undefined
}

/** The end of an event: DTEND, else DTSTART + DURATION, else one day (dates) or the start itself. */
function endOf(event: ICAL.Event, start: ICAL.Time): ICAL.Time {
  if (event.component.hasProperty('dtend') || event.component.hasProperty('duration')) return event.endDate
  const end = start.clone()
  if (start.isDate) end.adjust(1, 0, 0, 0)
  return end
}

function startOf(event: ICAL.Event, where: string, line: number): ICAL.Time {
  let start: ICAL.Time | null = null
  try {
    start = event.startDate
  } catch {}
  if (!start)
    throw new AppError('VALIDATION_FAILED', `${where}: the event at line ${line} has no valid DTSTART.`)
  return start
}

/** The view of an event component with the given start and end (an occurrence's, or its own). */
export function viewOf(
  component: ICAL.Component,
  start: ICAL.Time,
  end: ICAL.Time,
  userZone: string,
  recurrenceId?: ICAL.Time,
): EventView {
  const location = text(component, 'location')
  const description = text(component, 'description')
  const organizer = text(component, 'organizer')?.replace(/^mailto:/i, '')
  const status = text(component, 'status')
  const rec = recurrence(component)
  return {
    uid: text(component, 'uid') ?? '',
    summary: text(component, 'summary') ?? '',
    start: timeView(start, userZone),
    end: timeView(
      end.isDate && end.compare(start) <= 0 ? start : end,
      userZone,
      end.isDate && end.compare(start) > 0,
    ),
    all_day: start.isDate,
    ...(location ? { location } : {}),
    ...(description ? { description } : {}),
    attendees: attendees(component),
    ...(organizer ? { organizer } : {}),
    ...(rec ? { recurrence: rec } : {}),
    ...(recurrenceId ? { recurrence_id: wall(recurrenceId) } : {}),
    ...(status ? { status } : {}),
    ...(text(component, 'transp')?.toUpperCase() === 'TRANSPARENT' ? { transparent: true } : {}),
  }
}

/** The view of a stored event (the master of a recurring one), as receipts and get_event show it. */
export function eventView(parsed: ParsedEvent, where: string, userZone: string): EventView {
  const event = new ICAL.Event(parsed.component)
  const start = startOf(event, where, parsed.span.line)
  return viewOf(parsed.component, start, endOf(event, start), userZone)
}

/** How many occurrences of one recurring event are looked at, at most, per range. */
const MAX_STEPS = 50_000

/**
 * The occurrences of a calendar's events that overlap [fromMs, toMs): recurring events expanded by
 * ical.js (RRULE, RDATE, EXDATE, RECURRENCE-ID exceptions), sorted by start.
 */
export function occurrencesIn(
  parsed: ParsedCalendar,
  fromMs: number,
  toMs: number,
  userZone: string,
): Occurrence[] {
  const exceptions = new Map<string, ICAL.Component[]>()
  const masters = new Set<string>()
  for (const e of parsed.events) {
    if (e.recurrenceId === undefined) masters.add(e.uid)
    else exceptions.set(e.uid, [...(exceptions.get(e.uid) ?? []), e.component])
  }
  const found: Occurrence[] = []
  const push = (component: ICAL.Component, start: ICAL.Time, end: ICAL.Time, recurrenceId?: ICAL.Time) => {
    const startMs = instantOf(start, userZone)
    const endMs = Math.max(instantOf(end, userZone), startMs)
    const inRange = startMs < toMs && (endMs > fromMs || (endMs === startMs && startMs >= fromMs))
    if (inRange) found.push({ view: viewOf(component, start, end, userZone, recurrenceId), startMs, endMs })
  }
  for (const parsedEvent of parsed.events) {
    // An exception is listed through its master; one without a master stands alone.
    if (parsedEvent.recurrenceId !== undefined && masters.has(parsedEvent.uid)) continue
    const event = new ICAL.Event(parsedEvent.component, {
      exceptions: parsedEvent.recurrenceId === undefined ? (exceptions.get(parsedEvent.uid) ?? []) : [],
    })
    const start = startOf(event, parsed.where, parsedEvent.span.line)
    if (!event.isRecurring()) {
      push(parsedEvent.component, start, endOf(event, start))
      continue
    }
    const length = instantOf(endOf(event, start), userZone) - instantOf(start, userZone)
    const iterator = event.iterator()
    // Exceptions may move an occurrence by up to a few days; look that far past the range.
    const slack = 7 * 86_400_000
    for (let step = 0; step < MAX_STEPS; step++) {
      const next = iterator.next()
      if (!next) break
      const nextMs = instantOf(next, userZone)
      if (nextMs >= toMs + slack) break
      if (nextMs + length + slack < fromMs) continue
      const details = event.getOccurrenceDetails(next)
      if (
        details.item.component.getFirstPropertyValue('status') === 'CANCELLED' &&
        details.item.isRecurrenceException()
      )
        continue
      push(details.item.component, details.startDate, details.endDate, details.recurrenceId)
    }
  }
  return found.sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs)
}
