import ICAL from 'ical.js'

// The calendar checks' one dependency on the .ics format, kept apart so the calendar service's own
// no-overlap function can replace it.

export interface CalendarEvent {
  summary: string
  start: number
  end: number | undefined
}

/** The VEVENTs of an .ics text, start and end as Unix seconds (floating times taken as UTC). */
export function calendarEvents(ics: string): CalendarEvent[] {
  const root = new ICAL.Component(ICAL.parse(ics))
  return root.getAllSubcomponents('vevent').map((component) => {
    const event = new ICAL.Event(component)
    const dtend = component.getFirstPropertyValue('dtend')
    return {
      summary: event.summary ?? '',
      start: event.startDate.toUnixTime(),
      end: dtend instanceof ICAL.Time ? dtend.toUnixTime() : undefined,
    }
  })
}

/**
 * The first two events that overlap once sorted by start (one ends after the next one starts), as
 * OfficeBench's `evaluate_calendar_no_overlap` finds them; undefined when none do. Throws on an event
 * without an end that is followed by another (OfficeBench's checker fails there).
 */
export function firstOverlap(ics: string): [CalendarEvent, CalendarEvent] | undefined {
  const events = calendarEvents(ics).sort((a, b) => a.start - b.start)
  for (let i = 0; i + 1 < events.length; i++) {
    const [a, b] = [events[i]!, events[i + 1]!]
    if (a.end === undefined) throw new Error(`the event "${a.summary}" has no DTEND`)
    if (a.end > b.start) return [a, b]
  }
  return undefined
}
