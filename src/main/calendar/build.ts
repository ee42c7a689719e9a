import { randomUUID } from 'node:crypto'
import ICAL from 'ical.js'
import { AppError } from '../../shared/errors'
import { zonedInstant } from './slots'
import { icalZone, requireZone } from './zones'

/** What create_event and update_event take to describe an event. */
export interface EventFields {
  summary?: string | undefined
  start?: string | undefined
  end?: string | undefined
  duration?: number | undefined
  all_day?: boolean | undefined
  time_zone?: string | undefined
  location?: string | undefined
  description?: string | undefined
  attendees?: Array<string | { email: string; name?: string | undefined }> | undefined
  recurrence?: string | string[] | undefined
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/i

interface Wall {
  year: number
  month: number
  day: number
  hour: number
  minute: number
  second: number
}

function checkDate(text: string, w: Omit<Wall, 'hour' | 'minute' | 'second'> & Partial<Wall>): void {
  const d = new Date(Date.UTC(w.year, w.month - 1, w.day, w.hour ?? 0, w.minute ?? 0, w.second ?? 0))
  if (
    d.getUTCFullYear() !== w.year ||
    d.getUTCMonth() !== w.month - 1 ||
    d.getUTCDate() !== w.day ||
    (w.hour ?? 0) > 23 ||
    (w.minute ?? 0) > 59 ||
    (w.second ?? 0) > 59
  )
    throw new AppError('VALIDATION_FAILED', `"${text}" is not a real date and time.`)
}

/** An ISO 8601 date (all-day) read as an ICAL date. */
export function parseDate(text: string): ICAL.Time {
  const m = DATE.exec(text.trim()) ?? DATE_TIME.exec(text.trim())
  if (!m) throw new AppError('VALIDATION_FAILED', `"${text}" is not a date: write it as 2026-07-14.`)
  const w = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) }
  checkDate(text, w)
  return ICAL.Time.fromData({ ...w, isDate: true })
}

/**
 * An ISO 8601 date-time: without an offset it is a wall time in `zone`; with `Z` or an offset it is an
 * instant, shown in `zone`. The result carries the zone (UTC stays UTC).
 */
export function parseDateTime(text: string, zone: string): ICAL.Time {
  const m = DATE_TIME.exec(text.trim())
  if (!m)
    throw new AppError(
      'VALIDATION_FAILED',
      `"${text}" is not a date-time: write it as 2026-07-14T10:00 (in the event's time zone) or 2026-07-14T08:00Z.`,
    )
  const w: Wall = {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4]),
    minute: Number(m[5]),
    second: Number(m[6] ?? 0),
  }
  checkDate(text, w)
  const target = zone === 'UTC' ? ICAL.Timezone.utcTimezone : icalZone(zone)
  if (!target) throw new AppError('VALIDATION_FAILED', `Unknown time zone "${zone}".`)
  const offset = m[7]
  if (!offset) {
    // A wall time in a DST gap does not exist: take the instant it would be read as, shown in the zone.
    const instant =
      zone === 'UTC'
        ? Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second)
        : zonedInstant(w, zone)
    return ICAL.Time.fromJSDate(new Date(instant), true).convertToZone(target)
  }
  const sign = offset.toUpperCase() === 'Z' ? 0 : offset.startsWith('-') ? -1 : 1
  const digits = offset.replace(/[^0-9]/g, '')
  const minutes = sign === 0 ? 0 : sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4)))
  const instant = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - minutes * 60_000
  return ICAL.Time.fromJSDate(new Date(instant), true).convertToZone(target)
}

function attendeeProperty(attendee: string | { email: string; name?: string | undefined }): ICAL.Property {
  const { email, name } = typeof attendee === 'string' ? { email: attendee, name: undefined } : attendee
  const clean = email.trim().replace(/^mailto:/i, '')
  if (!/^[^\s@]+@[^\s@]+$/.test(clean))
    throw new AppError('VALIDATION_FAILED', `"${email}" is not an e-mail address for an attendee.`)
  const property = new ICAL.Property('attendee')
  property.setValue(`mailto:${clean}`)
  if (name) property.setParameter('cn', name)
  property.setParameter('partstat', 'NEEDS-ACTION')
  property.setParameter('role', 'REQ-PARTICIPANT')
  return property
}

function rules(recurrence: string | string[]): string[] {
  const list = (Array.isArray(recurrence) ? recurrence : [recurrence]).map((r) =>
    r.trim().replace(/^RRULE:/i, ''),
  )
  return list.filter(Boolean).map((rule) => {
    try {
      const recur = ICAL.Recur.fromString(rule)
      if (!recur.freq) throw new Error('no FREQ')
      return recur.toString()
    } catch {
      throw new AppError(
        'VALIDATION_FAILED',
        `"${rule}" is not a recurrence rule: write an RRULE such as FREQ=WEEKLY;BYDAY=MO;COUNT=10.`,
      )
    }
  })
}

function setText(component: ICAL.Component, name: string, value: string | undefined) {
  if (value === undefined) return
  component.removeAllProperties(name)
  if (value !== '') component.addPropertyWithValue(name, value)
}

function setTime(component: ICAL.Component, name: 'dtstart' | 'dtend', time: ICAL.Time) {
  component.removeAllProperties(name)
  const property = new ICAL.Property(name)
  if (time.isDate) property.resetType('date')
  property.setValue(time)
  if (!time.isDate && time.zone && time.zone.tzid !== 'UTC' && time.zone !== ICAL.Timezone.localTimezone)
    property.setParameter('tzid', time.zone.tzid)
  component.addProperty(property)
}

const stamp = () => ICAL.Time.fromJSDate(new Date(), true)

/**
 * Applies the fields to a VEVENT (a new one, or a stored one being updated): a moved start keeps the
 * event's length unless an end or duration is given; an end before the start is refused.
 */
export function applyFields(component: ICAL.Component, fields: EventFields, userZone: string): void {
  const event = new ICAL.Event(component)
  const oldStart = component.hasProperty('dtstart') ? event.startDate : undefined
  const oldEnd =
    oldStart && (component.hasProperty('dtend') || component.hasProperty('duration'))
      ? event.endDate
      : undefined
  const oldZone = oldStart && !oldStart.isDate ? oldStart.zone?.tzid : undefined
  // A zone the stored event already uses stays (a file may define its own, such as Outlook's Windows names).
  const absolute = (text: string | undefined) =>
    text !== undefined && /(Z|[+-]\d{2}:?\d{2})$/i.test(text.trim())
  const zone =
    fields.time_zone !== undefined
      ? requireZone(fields.time_zone)
      : absolute(fields.start) && !oldStart
        ? 'UTC'
        : oldZone && oldZone !== 'floating' && icalZone(oldZone)
          ? oldZone
          : requireZone(userZone)
  const allDay =
    fields.all_day ?? (fields.start ? DATE.test(fields.start.trim()) : (oldStart?.isDate ?? false))
  const timesChange =
    fields.start !== undefined ||
    fields.end !== undefined ||
    fields.duration !== undefined ||
    fields.all_day !== undefined ||
    fields.time_zone !== undefined
  if (timesChange) {
    const startText = fields.start ?? (oldStart ? oldStart.toString() : undefined)
    if (!startText) throw new AppError('VALIDATION_FAILED', 'Give the start of the event.')
    const start = allDay ? parseDate(startText) : parseDateTime(startText, zone)
    let end: ICAL.Time
    if (fields.end !== undefined) end = allDay ? parseDate(fields.end) : parseDateTime(fields.end, zone)
    else if (fields.duration !== undefined) {
      end = start.clone()
      if (allDay) end.adjust(Math.max(1, Math.ceil(fields.duration / 1440)), 0, 0, 0)
      else end.adjust(0, 0, fields.duration, 0)
    } else if (oldStart && oldEnd && oldStart.isDate === allDay) {
      end = start.clone()
      end.addDuration(oldEnd.subtractDate(oldStart))
    } else {
      end = start.clone()
      if (allDay) end.adjust(1, 0, 0, 0)
      else end.adjust(0, 1, 0, 0)
    }
    // An all-day end is given as the last day (inclusive) and stored as the day after, as RFC 5545 has it.
    if (allDay && fields.end !== undefined) end.adjust(1, 0, 0, 0)
    if (end.compare(start) <= 0)
      throw new AppError(
        'VALIDATION_FAILED',
        `The event would end (${end.toString()}) before or when it starts (${start.toString()}): give an end after the start.`,
      )
    setTime(component, 'dtstart', start)
    component.removeAllProperties('duration')
    setTime(component, 'dtend', end)
  }
  setText(component, 'summary', fields.summary)
  setText(component, 'location', fields.location)
  setText(component, 'description', fields.description)
  if (fields.attendees !== undefined) {
    component.removeAllProperties('attendee')
    for (const attendee of fields.attendees) component.addProperty(attendeeProperty(attendee))
  }
  if (fields.recurrence !== undefined) {
    component.removeAllProperties('rrule')
    for (const rule of rules(fields.recurrence))
      component.addPropertyWithValue('rrule', ICAL.Recur.fromString(rule))
  }
  component.removeAllProperties('dtstamp')
  component.addPropertyWithValue('dtstamp', stamp())
  if (component.hasProperty('sequence') || oldStart) {
    const sequence = Number(component.getFirstPropertyValue('sequence') ?? 0)
    component.updatePropertyWithValue('sequence', Number.isFinite(sequence) ? sequence + 1 : 1)
  }
}

/** A new VEVENT with a fresh UID. */
export function newEvent(fields: EventFields, userZone: string): ICAL.Component {
  if (!fields.start) throw new AppError('VALIDATION_FAILED', 'Give the start of the event.')
  const component = new ICAL.Component('vevent')
  component.addPropertyWithValue('uid', `${randomUUID()}@bureau`)
  applyFields(component, { ...fields, summary: fields.summary ?? '' }, userZone)
  component.addPropertyWithValue('created', stamp())
  return component
}

/** The TZIDs an event's times name (for the VTIMEZONE blocks its calendar needs). */
export function zonesUsed(component: ICAL.Component): string[] {
  const zones = new Set<string>()
  for (const property of component.getAllProperties()) {
    const tzid = property.getParameter('tzid')
    if (typeof tzid === 'string') zones.add(tzid)
  }
  return [...zones]
}
