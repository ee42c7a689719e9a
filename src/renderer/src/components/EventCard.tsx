/** A calendar receipt's event, as far as the card needs it. */
export interface CalendarReceipt {
  calendar: string
  event: {
    uid: string
    summary: string
    start: { local: string; time_zone: string; utc?: string }
    end: { local: string; time_zone: string; utc?: string }
    all_day: boolean
    location?: string
    attendees: Array<{ email: string; name?: string }>
    recurrence?: { rules: string[] }
  }
  conflicts?: Array<{ summary: string }>
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null

export function isCalendarReceipt(value: unknown): value is CalendarReceipt {
  if (!isRecord(value) || typeof value.calendar !== 'string' || !isRecord(value.event)) return false
  const { event } = value
  return (
    typeof event.summary === 'string' &&
    isRecord(event.start) &&
    typeof event.start.local === 'string' &&
    isRecord(event.end) &&
    typeof event.end.local === 'string' &&
    Array.isArray(event.attendees)
  )
}

/** `2026-07-14T10:00:00` -> the day and the time as written (no conversion: the event's own zone). */
function day(local: string): string {
  const [y, m, d] = local.slice(0, 10).split('-').map(Number)
  const date = new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1))
  return date.toLocaleDateString(undefined, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  })
}
const time = (local: string) => local.slice(11, 16)

/** A stored event shown as a small card: day, time with its zone, title, place, attendees, overlaps. */
export function EventCard({ receipt }: { receipt: CalendarReceipt }) {
  const { event } = receipt
  const sameDay = event.start.local.slice(0, 10) === event.end.local.slice(0, 10)
  const when = event.all_day
    ? sameDay
      ? 'All day'
      : `All day, until ${day(event.end.local)}`
    : `${time(event.start.local)}–${sameDay ? '' : `${day(event.end.local)} `}${time(event.end.local)}${
        event.start.time_zone === 'floating' ? '' : ` (${event.start.time_zone})`
      }`
  return (
    <article className="event-card" aria-label={`Event ${event.summary}`}>
      <div className="event-card-day">{day(event.start.local)}</div>
      <div className="event-card-body">
        <strong className="event-card-title">{event.summary || '(no title)'}</strong>
        <span className="event-card-time">
          {when}
          {event.recurrence?.rules.length ? ' · repeats' : ''}
        </span>
        {event.location && <span className="event-card-location">{event.location}</span>}
        {event.attendees.length > 0 && (
          <span className="event-card-attendees">
            With {event.attendees.map((a) => a.name || a.email).join(', ')}
          </span>
        )}
        {receipt.conflicts?.length ? (
          <span className="event-card-conflict warning">
            Overlaps {receipt.conflicts.map((c) => c.summary || '(no title)').join(', ')}
          </span>
        ) : null}
        <span className="event-card-calendar muted">{receipt.calendar}</span>
      </div>
    </article>
  )
}
