import { z } from 'zod'
import { defineToolset, method } from '../../tools'
import { isCalDavName } from '../names'
import type { CalendarEnvironment } from '../types'
import {
  CalendarArg,
  EventFieldsIn,
  EventOut,
  OccurrenceOut,
  ReceiptOut,
  SlotOut,
  StoredOut,
  TimeArg,
  WorkingHoursIn,
  ZoneArg,
} from './schemas'

/** The `calendar` toolset's declarations; what the methods do loads with the first call (ical.js, tsdav). */
export function createCalendarToolset(env: CalendarEnvironment) {
  let loaded: Promise<ReturnType<typeof import('../operations').calendarOperations>> | undefined
  const ops = () => {
    loaded ??= import('../operations').then(({ calendarOperations }) => calendarOperations(env))
    return loaded
  }
  const riskOf = (args: { calendar: string }) => (isCalDavName(args.calendar) ? 'external' : 'write')
  const readRisk = (args: { calendar: string }) => (isCalDavName(args.calendar) ? 'external' : 'read')

  return defineToolset({
    name: 'calendar',
    summary:
      'Reads and changes calendars (.ics files in the workspace, CalDAV accounts): events, free slots, conflicts.',
    description:
      'A calendar is an .ics file by agent path (/calendar/team.ics; a person’s calendar is /calendar/<Name>.ics) or a CalDAV calendar as account:calendar. ' +
      'Times are ISO 8601 (2026-07-14T10:00) read in time_zone or the user’s zone; durations are minutes. ' +
      'Every write returns the event as stored and read back (uid, start and end with zone and UTC): check it.',
    methods: {
      listCalendars: method({
        description:
          'Lists the calendars: .ics files under /calendar and the calendars of the CalDAV accounts.',
        input: z.object({}),
        output: z.object({
          time_zone: z.string(),
          calendars: z.array(
            z.object({
              calendar: z.string(),
              kind: z.enum(['file', 'caldav']),
              description: z.string().optional(),
            }),
          ),
          unreachable: z.array(z.object({ account: z.string(), error: z.string() })).optional(),
        }),
        examples: [{}],
        risk: 'external',
        riskOf: () => (Object.keys(env.settings().accounts).length > 0 ? 'external' : 'read'),
        run: async (_args, ctx) => (await ops()).listCalendars(ctx),
      }),
      listEvents: method({
        description:
          'Lists the events between two times, recurring events expanded into their occurrences, sorted by start, one page at a time.',
        input: z.object({
          calendar: CalendarArg,
          from: TimeArg,
          to: TimeArg.describe('The end of the range; a date alone includes that whole day.'),
          time_zone: ZoneArg,
          limit: z.number().int().min(1).max(500).default(50),
          offset: z.number().int().min(0).default(0),
        }),
        output: z.object({
          calendar: z.string(),
          time_zone: z.string(),
          total: z.number(),
          events: z.array(OccurrenceOut),
          next_offset: z.number().optional(),
        }),
        examples: [{ calendar: '/calendar/team.ics', from: '2026-07-01', to: '2026-07-31' }],
        risk: 'external',
        riskOf: readRisk,
        run: async (args, ctx) => (await ops()).listEvents(args, ctx),
      }),
      getEvent: method({
        description: 'Reads one event by uid: its times, attendees, recurrence and exceptions.',
        input: z.object({ calendar: CalendarArg, uid: z.string().min(1).max(1000) }),
        output: z.object({ calendar: z.string(), event: EventOut, exceptions: z.array(EventOut) }),
        examples: [{ calendar: '/calendar/team.ics', uid: 'a1b2c3@bureau' }],
        risk: 'external',
        riskOf: readRisk,
        run: async (args, ctx) => (await ops()).getEvent(args, ctx),
      }),
      createEvent: method({
        description: 'Adds an event and returns it as stored (read back), with any events it overlaps.',
        input: z.object({
          calendar: CalendarArg,
          start: TimeArg,
          ...EventFieldsIn,
          summary: z.string().min(1).max(1000),
        }),
        output: ReceiptOut,
        examples: [
          {
            calendar: '/calendar/team.ics',
            summary: 'Budget review',
            start: '2026-07-14T10:00',
            duration: 60,
            time_zone: 'Europe/Paris',
            attendees: ['bob@example.com'],
          },
        ],
        risk: 'external',
        riskOf,
        approvalTarget: (args) => [
          { label: 'Calendar', value: args.calendar },
          { label: 'Event', value: `${args.summary} (${args.start})` },
        ],
        run: async (args, ctx) => (await ops()).createEvent(args, ctx),
      }),
      updateEvent: method({
        description:
          'Changes an event (the whole series of a recurring one): only the fields given; a new start keeps its length unless end or duration is given.',
        input: z.object({
          calendar: CalendarArg,
          uid: z.string().min(1).max(1000),
          start: TimeArg.optional(),
          ...EventFieldsIn,
        }),
        output: ReceiptOut,
        examples: [{ calendar: '/calendar/team.ics', uid: 'a1b2c3@bureau', start: '2026-07-17T10:00' }],
        risk: 'external',
        riskOf,
        approvalTarget: (args) => [
          { label: 'Calendar', value: args.calendar },
          { label: 'Event', value: args.uid },
        ],
        run: async (args, ctx) => (await ops()).updateEvent(args, ctx),
      }),
      deleteEvent: method({
        description: 'Removes an event (with all occurrences and exceptions of a recurring one).',
        input: z.object({ calendar: CalendarArg, uid: z.string().min(1).max(1000) }),
        output: z.object({ calendar: z.string(), uid: z.string(), removed: z.number(), stored: StoredOut }),
        examples: [{ calendar: '/calendar/team.ics', uid: 'a1b2c3@bureau' }],
        risk: 'external',
        riskOf,
        approvalTarget: (args) => [
          { label: 'Calendar', value: args.calendar },
          { label: 'Event', value: args.uid },
        ],
        run: async (args, ctx) => (await ops()).deleteEvent(args, ctx),
      }),
      findFreeSlots: method({
        description:
          'Finds times when every calendar given is free for `duration` minutes, within working hours.',
        input: z.object({
          calendars: z.array(CalendarArg).max(20).optional(),
          people: z
            .array(z.string().min(1).max(100))
            .max(20)
            .optional()
            .describe('Names whose calendars are /calendar/<Name>.ics.'),
          from: TimeArg,
          to: TimeArg,
          duration: z.number().int().min(5).max(1440).describe('Minutes.'),
          working_hours: WorkingHoursIn,
          time_zone: ZoneArg,
          limit: z.number().int().min(1).max(100).default(10),
        }),
        output: z.object({
          time_zone: z.string(),
          calendars: z.array(z.string()),
          duration: z.number(),
          slots: z.array(SlotOut),
          busy: z.number().describe('Busy events in the range.'),
          more: z.boolean().optional(),
        }),
        examples: [{ people: ['Alice', 'Bob'], from: '2026-07-13', to: '2026-07-17', duration: 60 }],
        risk: 'external',
        riskOf: (args) => ((args.calendars ?? []).some(isCalDavName) ? 'external' : 'read'),
        run: async (args, ctx) => (await ops()).findFreeSlots(args, ctx),
      }),
      checkConflicts: method({
        description:
          'Lists the events of a calendar that overlap a time (cancelled and free-marked events left out).',
        input: z.object({ calendar: CalendarArg, start: TimeArg, end: TimeArg, time_zone: ZoneArg }),
        output: z.object({ calendar: z.string(), free: z.boolean(), conflicts: z.array(OccurrenceOut) }),
        examples: [{ calendar: '/calendar/team.ics', start: '2026-07-14T10:00', end: '2026-07-14T11:00' }],
        risk: 'external',
        riskOf: readRisk,
        run: async (args, ctx) => (await ops()).checkConflicts(args, ctx),
      }),
    },
  })
}
