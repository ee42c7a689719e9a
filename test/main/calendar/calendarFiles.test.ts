import { readFileSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixturePath } from '../../support/fixtures'
import { type CalendarHarness, type Listing, openCalendarHarness, type Receipt } from './harness'

let h: CalendarHarness
const fixture = (name: string) => readFileSync(fixturePath('calendar', name), 'utf8')
const put = async (path: string, text: string) => {
  await h.workspace.writeFile(path, text)
  return text
}
const onDisk = (path: string) => readFile(join(h.root, path), 'utf8')

describe('calendar toolset over workspace .ics files', () => {
  beforeAll(async () => {
    h = await openCalendarHarness()
  })
  afterAll(async () => h?.close())

  it('creates a calendar file on the first write and returns the event read back, 10:00 Paris = 08:00 UTC in July', async () => {
    const receipt = await h.call<Receipt>('calendar_create_event', {
      calendar: '/calendar/team.ics',
      summary: 'Budget review',
      start: '2026-07-14T10:00',
      duration: 60,
      time_zone: 'Europe/Paris',
      attendees: ['bob@example.com', { email: 'ann@example.com', name: 'Ann Lee' }],
      location: 'Room 1',
    })
    expect(receipt.event).toMatchObject({
      summary: 'Budget review',
      start: { local: '2026-07-14T10:00:00', time_zone: 'Europe/Paris', utc: '2026-07-14T08:00:00Z' },
      end: { local: '2026-07-14T11:00:00', time_zone: 'Europe/Paris', utc: '2026-07-14T09:00:00Z' },
      all_day: false,
      location: 'Room 1',
      attendees: [
        { email: 'bob@example.com', status: 'NEEDS-ACTION' },
        { email: 'ann@example.com', name: 'Ann Lee', status: 'NEEDS-ACTION' },
      ],
    })
    expect(receipt.stored.path).toBe('/calendar/team.ics')
    const text = await onDisk('calendar/team.ics')
    expect(text).toContain('DTSTART;TZID=Europe/Paris:20260714T100000')
    expect(text).toContain('BEGIN:VTIMEZONE\r\nTZID:Europe/Paris')
    expect(text).toContain(`UID:${receipt.event.uid}`)
  })

  it('reports overlaps on create, in check_conflicts, and finds free slots around them', async () => {
    const second = await h.call<Receipt>('calendar_create_event', {
      calendar: '/calendar/team.ics',
      summary: 'Overlapping',
      start: '2026-07-14T08:30Z',
      end: '2026-07-14T10:00Z',
    })
    expect(second.event.start).toMatchObject({ time_zone: 'UTC', utc: '2026-07-14T08:30:00Z' })
    expect(second.conflicts?.map((c) => c.summary)).toEqual(['Budget review'])
    const check = await h.call<{ free: boolean; conflicts: { summary: string }[] }>(
      'calendar_check_conflicts',
      {
        calendar: '/calendar/team.ics',
        start: '2026-07-14T11:30',
        end: '2026-07-14T12:30',
      },
    )
    expect(check.conflicts.map((c) => c.summary)).toEqual(['Overlapping'])
    expect(check.free).toBe(false)
    const clear = await h.call<{ free: boolean }>('calendar_check_conflicts', {
      calendar: '/calendar/team.ics',
      start: '2026-07-14T12:00',
      end: '2026-07-14T13:00',
    })
    expect(clear.free).toBe(true)
    const slots = await h.call<{ slots: { start: string; end: string; start_utc: string }[] }>(
      'calendar_find_free_slots',
      {
        calendars: ['/calendar/team.ics'],
        from: '2026-07-14',
        to: '2026-07-14',
        duration: 60,
      },
    )
    expect(slots.slots).toEqual([
      {
        start: '2026-07-14T09:00:00',
        end: '2026-07-14T10:00:00',
        start_utc: '2026-07-14T07:00:00Z',
        end_utc: '2026-07-14T08:00:00Z',
        minutes: 60,
      },
      {
        start: '2026-07-14T12:00:00',
        end: '2026-07-14T17:00:00',
        start_utc: '2026-07-14T10:00:00Z',
        end_utc: '2026-07-14T15:00:00Z',
        minutes: 300,
      },
    ])
  })

  it('finds slots free in several people’s calendars (/calendar/<Name>.ics)', async () => {
    const event = (uid: string, start: string, end: string) =>
      `BEGIN:VEVENT\r\nUID:${uid}\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:${start}\r\nDTEND:${end}\r\nSUMMARY:${uid}\r\nEND:VEVENT\r\n`
    const cal = (...events: string[]) =>
      `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//EN\r\n${events.join('')}END:VCALENDAR\r\n`
    await put('/calendar/Alice.ics', cal(event('a1', '20260715T070000Z', '20260715T100000Z')))
    await put('/calendar/Bob.ics', cal(event('b1', '20260715T110000Z', '20260715T143000Z')))
    const found = await h.call<{ slots: { start: string; minutes: number }[]; busy: number }>(
      'calendar_find_free_slots',
      {
        people: ['Alice', 'Bob'],
        from: '2026-07-15',
        to: '2026-07-15',
        duration: 30,
      },
    )
    expect(found.busy).toBe(2)
    expect(found.slots.map((s) => [s.start, s.minutes])).toEqual([
      ['2026-07-15T12:00:00', 60],
      ['2026-07-15T16:30:00', 30],
    ])
    const missing = await h.attempt('calendar_find_free_slots', {
      people: ['Nobody'],
      from: '2026-07-15',
      to: '2026-07-15',
      duration: 30,
    })
    expect(missing.ok).toBe(false)
    if (!missing.ok) expect(missing.error).toContain('/calendar/Nobody.ics')
  })

  it('updates only the fields given, keeps the length when the start moves, and deletes with a backup', async () => {
    const created = await h.call<Receipt>('calendar_create_event', {
      calendar: '/calendar/moves.ics',
      summary: 'Thursday sync',
      start: '2026-07-16T15:00',
      duration: 45,
    })
    const moved = await h.call<Receipt>('calendar_update_event', {
      calendar: '/calendar/moves.ics',
      uid: created.event.uid,
      start: '2026-07-17T15:00',
    })
    expect(moved.event).toMatchObject({
      uid: created.event.uid,
      summary: 'Thursday sync',
      start: { local: '2026-07-17T15:00:00', time_zone: 'Europe/Paris', utc: '2026-07-17T13:00:00Z' },
      end: { local: '2026-07-17T15:45:00' },
    })
    expect(moved.stored.backup).toBeTruthy()
    const deleted = await h.call<{ removed: number; stored: { backup?: string } }>('calendar_delete_event', {
      calendar: '/calendar/moves.ics',
      uid: created.event.uid,
    })
    expect(deleted.removed).toBe(1)
    expect(deleted.stored.backup).toBeTruthy()
    const after = await h.call<Listing>('calendar_list_events', {
      calendar: '/calendar/moves.ics',
      from: '2026-07-01',
      to: '2026-07-31',
    })
    expect(after.total).toBe(0)
    const gone = await h.attempt('calendar_delete_event', {
      calendar: '/calendar/moves.ics',
      uid: created.event.uid,
    })
    expect(gone.ok ? '' : gone.code).toBe('NOT_FOUND')
  })

  it('creates all-day events with an inclusive last day and lists them', async () => {
    const receipt = await h.call<Receipt>('calendar_create_event', {
      calendar: '/calendar/leave.ics',
      summary: 'Holiday',
      start: '2026-08-03',
      end: '2026-08-07',
      all_day: true,
    })
    expect(receipt.event).toMatchObject({
      all_day: true,
      start: { local: '2026-08-03' },
      end: { local: '2026-08-07' },
    })
    expect(await onDisk('calendar/leave.ics')).toContain('DTSTART;VALUE=DATE:20260803')
    expect(await onDisk('calendar/leave.ics')).toContain('DTEND;VALUE=DATE:20260808')
    const listed = await h.call<Listing>('calendar_list_events', {
      calendar: '/calendar/leave.ics',
      from: '2026-08-05',
      to: '2026-08-05',
    })
    expect(listed.events.map((e) => e.summary)).toEqual(['Holiday'])
  })

  it('expands a Google export: weekly RRULE, an EXDATE and a moved occurrence; keeps every other byte on write', async () => {
    const original = await put('/calendar/google.ics', fixture('google.ics'))
    const march = await h.call<Listing>('calendar_list_events', {
      calendar: '/calendar/google.ics',
      from: '2026-03-01',
      to: '2026-03-31',
    })
    expect(march.events.map((e) => [e.summary, e.start.local, e.start.utc])).toEqual([
      ['Budget sync', '2026-03-10T14:00:00', '2026-03-10T13:00:00Z'],
      ['Call with Tokyo office', '2026-03-12T08:00:00', '2026-03-12T08:00:00Z'],
      ['Budget sync (moved)', '2026-03-17T16:00:00', '2026-03-17T15:00:00Z'],
      ['Budget sync', '2026-03-31T14:00:00', '2026-03-31T12:00:00Z'],
    ])
    expect(march.events[2]?.recurrence_id).toBe('2026-03-17T14:00:00')
    const got = await h.call<{
      event: { attendees: { name?: string }[]; recurrence?: { exdates: string[] } }
      exceptions: unknown[]
    }>('calendar_get_event', {
      calendar: '/calendar/google.ics',
      uid: '4h2k9s8d7f6g5h4j3k2l1m0n9b@google.com',
    })
    expect(got.event.attendees.map((a) => a.name)).toEqual(['Marta Keller', 'bob@example.com'])
    expect(got.event.recurrence?.exdates).toEqual(['2026-03-24T14:00:00'])
    expect(got.exceptions).toHaveLength(1)
    const added = await h.call<Receipt>('calendar_create_event', {
      calendar: '/calendar/google.ics',
      summary: 'New',
      start: '2026-03-20T09:00',
      end: '2026-03-20T09:30',
    })
    const withNew = await onDisk('calendar/google.ics')
    const end = original.lastIndexOf('END:VCALENDAR')
    expect(withNew.startsWith(original.slice(0, end))).toBe(true)
    expect(withNew.endsWith('END:VCALENDAR\r\n')).toBe(true)
    expect(withNew).not.toMatch(/[^\r]\n/)
    await h.call('calendar_delete_event', { calendar: '/calendar/google.ics', uid: added.event.uid })
    expect(await onDisk('calendar/google.ics')).toBe(original)
  })

  it('updates a Thunderbird event in place: its alarm and X- properties stay, the rest of the file is unchanged', async () => {
    const original = await put('/calendar/thunderbird.ics', fixture('thunderbird.ics'))
    const uid = '7c1e6b0a-1d2f-4f51-9a1e-2b8f0c3d4e5f'
    const receipt = await h.call<Receipt>('calendar_update_event', {
      calendar: '/calendar/thunderbird.ics',
      uid,
      summary: 'Standup',
    })
    expect(receipt.event).toMatchObject({
      summary: 'Standup',
      start: { time_zone: 'Europe/Berlin', utc: '2026-03-02T08:30:00Z' },
    })
    const text = await onDisk('calendar/thunderbird.ics')
    const begin = original.indexOf('BEGIN:VEVENT')
    const endOfFirst = original.indexOf('END:VEVENT\r\n') + 'END:VEVENT\r\n'.length
    expect(text.startsWith(original.slice(0, begin))).toBe(true)
    expect(text.endsWith(original.slice(endOfFirst))).toBe(true)
    const updated = text.slice(begin, text.length - (original.length - endOfFirst))
    for (const kept of [
      'X-MOZ-GENERATION:3',
      'X-MOZ-SNOOZE-TIME:20260302T082500Z',
      'BEGIN:VALARM',
      'TRIGGER:-PT5M',
      'RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR',
    ])
      expect(updated).toContain(kept)
    expect(updated).toContain('SUMMARY:Standup')
    expect(updated).toContain('SEQUENCE:2')
    const dentist = await h.call<Listing>('calendar_list_events', {
      calendar: '/calendar/thunderbird.ics',
      from: '2026-03-18',
      to: '2026-03-18',
    })
    expect(dentist.events.map((e) => [e.summary, e.all_day, e.transparent])).toEqual([
      ['Dentist', true, true],
      ['Standup', false, undefined],
    ])
  })

  it('reads an Outlook export with a Windows zone name from its VTIMEZONE', async () => {
    const original = await put('/calendar/outlook.ics', fixture('outlook.ics'))
    const listed = await h.call<Listing>('calendar_list_events', {
      calendar: '/calendar/outlook.ics',
      from: '2026-03-26',
      to: '2026-03-26',
    })
    expect(listed.events).toHaveLength(1)
    expect(listed.events[0]).toMatchObject({
      summary: 'Quarterly planning',
      start: {
        local: '2026-03-26T10:00:00',
        time_zone: 'W. Europe Standard Time',
        utc: '2026-03-26T09:00:00Z',
      },
      location: 'Board room',
    })
    const uid = listed.events[0]?.uid ?? ''
    expect(uid).toMatch(/^040000008200E00074C5B7101A82E008.*9$/)
    await h.call('calendar_update_event', { calendar: '/calendar/outlook.ics', uid, location: 'Room 2' })
    const text = await onDisk('calendar/outlook.ics')
    expect(text.startsWith(original.slice(0, original.indexOf('BEGIN:VEVENT')))).toBe(true)
    expect(text).toContain('X-MICROSOFT-CDO-BUSYSTATUS:BUSY')
    expect(text).toContain('LOCATION:Room 2')
  })

  it('lists a weekly Paris event with one exception correctly across the October DST change', async () => {
    const created = await h.call<Receipt>('calendar_create_event', {
      calendar: '/calendar/dst.ics',
      summary: 'Weekly',
      start: '2026-10-15T10:00',
      duration: 30,
      time_zone: 'Europe/Paris',
      recurrence: 'FREQ=WEEKLY;COUNT=4',
    })
    expect(created.event.recurrence?.rules).toEqual(['FREQ=WEEKLY;COUNT=4'])
    // One occurrence moved by hand, as another program would write it.
    const text = await onDisk('calendar/dst.ics')
    const exception = [
      'BEGIN:VEVENT',
      `UID:${created.event.uid}`,
      'DTSTAMP:20261001T000000Z',
      'RECURRENCE-ID;TZID=Europe/Paris:20261029T100000',
      'DTSTART;TZID=Europe/Paris:20261029T140000',
      'DTEND;TZID=Europe/Paris:20261029T143000',
      'SUMMARY:Weekly (afternoon)',
      'END:VEVENT',
      '',
    ].join('\r\n')
    await writeFile(
      join(h.root, 'calendar/dst.ics'),
      text.replace('END:VCALENDAR', `${exception}END:VCALENDAR`),
    )
    const listed = await h.call<Listing>('calendar_list_events', {
      calendar: '/calendar/dst.ics',
      from: '2026-10-01',
      to: '2026-11-30',
    })
    expect(listed.events.map((e) => [e.summary, e.start.local, e.start.utc])).toEqual([
      ['Weekly', '2026-10-15T10:00:00', '2026-10-15T08:00:00Z'],
      ['Weekly', '2026-10-22T10:00:00', '2026-10-22T08:00:00Z'],
      ['Weekly (afternoon)', '2026-10-29T14:00:00', '2026-10-29T13:00:00Z'],
      ['Weekly', '2026-11-05T10:00:00', '2026-11-05T09:00:00Z'],
    ])
  })

  it('reads RDATE and EXDATE of hand-written files and floating times in the user’s zone', async () => {
    await put(
      '/calendar/rdate.ics',
      [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//t//EN',
        'BEGIN:VEVENT',
        'UID:r1',
        'DTSTAMP:20260101T000000Z',
        'DTSTART:20260601T090000',
        'DTEND:20260601T100000',
        'RRULE:FREQ=DAILY;COUNT=3',
        'EXDATE:20260602T090000',
        'RDATE:20260610T090000',
        'SUMMARY:Floating',
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n'),
    )
    const listed = await h.call<Listing>('calendar_list_events', {
      calendar: '/calendar/rdate.ics',
      from: '2026-06-01',
      to: '2026-06-30',
    })
    expect(listed.events.map((e) => [e.start.local, e.start.time_zone, e.start.utc])).toEqual([
      ['2026-06-01T09:00:00', 'floating', '2026-06-01T07:00:00Z'],
      ['2026-06-03T09:00:00', 'floating', '2026-06-03T07:00:00Z'],
      ['2026-06-10T09:00:00', 'floating', '2026-06-10T07:00:00Z'],
    ])
  })

  it('refuses bad input with a clear error and leaves the file as it was', async () => {
    const broken =
      'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:x\r\nDTSTART:20260101T100000Z\r\nthis line is broken\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n'
    await put('/calendar/broken.ics', broken)
    const write = await h.attempt('calendar_create_event', {
      calendar: '/calendar/broken.ics',
      summary: 'x',
      start: '2026-07-01T10:00',
    })
    expect(write.ok).toBe(false)
    if (!write.ok) expect(write.error).toContain('/calendar/broken.ics is not a valid iCalendar file: line 6')
    expect(await onDisk('calendar/broken.ics')).toBe(broken)
    expect(await h.workspace.listBackups('/calendar/broken.ics')).toEqual([])

    const unclosed = await put(
      '/calendar/unclosed.ics',
      'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:y\r\nEND:VCALENDAR\r\n',
    )
    const read = await h.attempt('calendar_list_events', {
      calendar: '/calendar/unclosed.ics',
      from: '2026-01-01',
      to: '2026-01-31',
    })
    expect(read.ok ? '' : read.error).toContain('line 4: END:VCALENDAR closes BEGIN:VEVENT of line 2')
    expect(await onDisk('calendar/unclosed.ics')).toBe(unclosed)

    const before = await onDisk('calendar/team.ics')
    const backwards = await h.attempt('calendar_create_event', {
      calendar: '/calendar/team.ics',
      summary: 'Backwards',
      start: '2026-07-14T10:00',
      end: '2026-07-14T09:00',
    })
    expect(backwards.ok ? '' : backwards.error).toMatch(/would end .* before or when it starts/)
    const zone = await h.attempt('calendar_create_event', {
      calendar: '/calendar/team.ics',
      summary: 'Nowhere',
      start: '2026-07-14T10:00',
      time_zone: 'Mars/Olympus_Mons',
    })
    expect(zone.ok ? '' : zone.error).toContain('Unknown time zone "Mars/Olympus_Mons"')
    const date = await h.attempt('calendar_create_event', {
      calendar: '/calendar/team.ics',
      summary: 'x',
      start: '2026-02-30T10:00',
    })
    expect(date.ok ? '' : date.error).toContain('"2026-02-30T10:00" is not a real date')
    const rule = await h.attempt('calendar_create_event', {
      calendar: '/calendar/team.ics',
      summary: 'x',
      start: '2026-07-01T10:00',
      recurrence: 'EVERY MONDAY',
    })
    expect(rule.ok ? '' : rule.error).toContain('is not a recurrence rule')
    const notIcs = await h.attempt('calendar_list_events', {
      calendar: '/calendar/notes.txt',
      from: '2026-01-01',
      to: '2026-01-02',
    })
    expect(notIcs.ok ? '' : notIcs.error).toContain('is not a calendar')
    expect(await onDisk('calendar/team.ics')).toBe(before)
  })

  it('lists the calendars of the workspace', async () => {
    const listed = await h.call<{ time_zone: string; calendars: { calendar: string; kind: string }[] }>(
      'calendar_list_calendars',
    )
    expect(listed.time_zone).toBe('Europe/Paris')
    expect(listed.calendars.map((c) => c.calendar)).toEqual(
      expect.arrayContaining(['/calendar/team.ics', '/calendar/Alice.ics', '/calendar/google.ics']),
    )
    expect(listed.calendars.every((c) => c.kind === 'file')).toBe(true)
  })
})
