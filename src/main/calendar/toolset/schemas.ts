import { z } from 'zod'

export const CalendarArg = z
  .string()
  .min(1)
  .max(500)
  .describe(
    'An .ics file of the workspace by agent path (/calendar/team.ics, created on first write) or a CalDAV calendar as account:calendar name.',
  )

export const TimeArg = z
  .string()
  .min(10)
  .max(40)
  .describe(
    'ISO 8601: 2026-07-14T10:00 (read in time_zone or the user’s zone), 2026-07-14T08:00Z, or a date 2026-07-14.',
  )

export const ZoneArg = z
  .string()
  .min(1)
  .max(100)
  .optional()
  .describe('IANA time zone such as Europe/Paris; default: the user’s zone.')

const Attendee = z.union([
  z.string().min(3).max(320),
  z.object({ email: z.string().min(3).max(320), name: z.string().max(200).optional() }),
])

/** The fields of an event, as create_event takes them and update_event changes them. */
export const EventFieldsIn = {
  summary: z.string().max(1000).optional().describe('The title.'),
  end: TimeArg.optional().describe('The end (exclusive); or give duration. All-day: the last day.'),
  duration: z.number().int().min(1).max(525_600).optional().describe('Length in minutes, instead of end.'),
  all_day: z.boolean().optional().describe('A whole-day event: start and end are dates.'),
  time_zone: ZoneArg,
  location: z.string().max(1000).optional(),
  description: z.string().max(20_000).optional(),
  attendees: z.array(Attendee).max(200).optional().describe('E-mail addresses, or {email, name}.'),
  recurrence: z
    .union([z.string().max(500), z.array(z.string().max(500)).max(10)])
    .optional()
    .describe('An RRULE such as FREQ=WEEKLY;BYDAY=TU;COUNT=10 ("" removes it).'),
}

const EventTimeOut = z.object({ local: z.string(), time_zone: z.string(), utc: z.string().optional() })

export const EventOut = z.object({
  uid: z.string(),
  summary: z.string(),
  start: EventTimeOut,
  end: EventTimeOut,
  all_day: z.boolean(),
  location: z.string().optional(),
  description: z.string().optional(),
  attendees: z.array(
    z.object({ email: z.string(), name: z.string().optional(), status: z.string().optional() }),
  ),
  organizer: z.string().optional(),
  recurrence: z
    .object({ rules: z.array(z.string()), rdates: z.array(z.string()), exdates: z.array(z.string()) })
    .optional(),
  recurrence_id: z.string().optional(),
  status: z.string().optional(),
  transparent: z.boolean().optional(),
})

export const StoredOut = z.object({
  path: z.string().optional(),
  url: z.string().optional(),
  backup: z.string().optional(),
  version: z.string().optional(),
  etag: z.string().optional(),
})

export const OccurrenceOut = EventOut.extend({ calendar: z.string() })

export const ReceiptOut = z.object({
  calendar: z.string(),
  event: EventOut,
  stored: StoredOut,
  conflicts: z.array(OccurrenceOut).optional().describe('Other events at the same time.'),
})

export const WorkingHoursIn = z
  .union([
    z.object({
      start: z
        .string()
        .regex(/^([01]\d|2[0-3]):[0-5]\d$/)
        .default('09:00'),
      end: z
        .string()
        .regex(/^([01]\d|2[0-4]):[0-5]\d$/)
        .default('17:00'),
      days: z
        .array(z.number().int().min(0).max(6))
        .min(1)
        .max(7)
        .default([1, 2, 3, 4, 5])
        .describe('0 = Sunday … 6 = Saturday.'),
    }),
    z.literal('any'),
  ])
  .optional()
  .describe(
    'Hours a slot may fall in, in time_zone; default 09:00–17:00 Monday to Friday; "any": round the clock.',
  )

export const SlotOut = z.object({
  start: z.string(),
  end: z.string(),
  start_utc: z.string(),
  end_utc: z.string(),
  minutes: z.number(),
})
