import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bigCalendar } from './bigCalendar'
import { type CalendarHarness, type Listing, openCalendarHarness } from './harness'

let h: CalendarHarness

describe('a calendar of 10,000 events', () => {
  beforeAll(async () => {
    h = await openCalendarHarness({ timeZone: 'UTC' })
    await h.workspace.writeFile('/calendar/big.ics', bigCalendar(10_000))
  })
  afterAll(async () => h?.close())

  it('lists a month in pages: total, next_offset, no event twice, sorted by start', async () => {
    const args = { calendar: '/calendar/big.ics', from: '2026-03-01', to: '2026-03-31', limit: 200 }
    const first = await h.call<Listing>('calendar_list_events', args)
    expect(first.total).toBeGreaterThan(700)
    expect(first.events).toHaveLength(200)
    expect(first.next_offset).toBe(200)
    const seen: string[] = []
    let offset: number | undefined = 0
    while (offset !== undefined) {
      const page: Listing = await h.call<Listing>('calendar_list_events', { ...args, offset })
      seen.push(...page.events.map((e) => `${e.uid} ${e.start.utc}`))
      offset = page.next_offset
    }
    expect(seen).toHaveLength(first.total)
    expect(new Set(seen).size).toBe(first.total)
    const starts = seen.map((s) => s.split(' ')[1] ?? '')
    expect([...starts].sort()).toEqual(starts)
    expect(starts.every((s) => s >= '2026-03-01' && s < '2026-04-01')).toBe(true)
  }, 60_000)

  it('finds free slots and writes one event, keeping the other 10,000 byte for byte', async () => {
    const before = (await h.workspace.readText('/calendar/big.ics')).replace(/END:VCALENDAR\r\n$/, '')
    const slots = await h.call<{ slots: { start: string }[] }>('calendar_find_free_slots', {
      calendars: ['/calendar/big.ics'],
      from: '2026-03-02',
      to: '2026-03-06',
      duration: 30,
      working_hours: { start: '07:00', end: '20:00' },
    })
    expect(slots.slots.length).toBeGreaterThan(0)
    const start = slots.slots[0]?.start ?? ''
    const check = await h.call<{ free: boolean }>('calendar_check_conflicts', {
      calendar: '/calendar/big.ics',
      start,
      end: new Date(Date.parse(`${start}Z`) + 30 * 60_000).toISOString().slice(0, 16),
    })
    expect(check.free).toBe(true)
    await h.call('calendar_create_event', {
      calendar: '/calendar/big.ics',
      summary: 'Fits',
      start,
      duration: 30,
    })
    const after = await h.workspace.readText('/calendar/big.ics')
    expect(after.startsWith(before)).toBe(true)
    expect(after.slice(before.length)).toContain('SUMMARY:Fits')
  }, 60_000)
})
