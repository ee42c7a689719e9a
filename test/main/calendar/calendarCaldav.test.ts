import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createApprovalGate, DENIED_BY_USER } from '../../../src/main/agent'
import { freePort } from '../../../src/main/eval/mail/dovecot'
import { invoke } from '../../../src/main/tools'
import { ApprovalSettings } from '../../../src/shared/settings'
import { type Radicale, startRadicale } from '../../support/radicale'
import { describeNeeding } from '../../support/requirements'
import { type CalendarHarness, type Listing, openCalendarHarness, type Receipt } from './harness'

const PASSWORD = 'alice-calendar'
let radicale: Radicale
let h: CalendarHarness

/** A TCP proxy to Radicale that can cut the connection when a PUT arrives. */
interface Proxy {
  url: string
  dropNextPut(): void
  close(): Promise<void>
}
async function startProxy(target: number): Promise<Proxy> {
  let drop = false
  const sockets = new Set<Socket>()
  const server: Server = createServer((client) => {
    const upstream = tcpConnect(target, '127.0.0.1')
    sockets.add(client)
    sockets.add(upstream)
    client.on('data', (chunk) => {
      if (drop && chunk.toString('latin1').startsWith('PUT ')) {
        drop = false
        client.destroy()
        upstream.destroy()
        return
      }
      upstream.write(chunk)
    })
    upstream.on('data', (chunk) => client.write(chunk))
    const end = () => {
      client.destroy()
      upstream.destroy()
    }
    client.on('close', end).on('error', end)
    upstream.on('close', end).on('error', end)
  })
  const port = await freePort()
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${port}/`,
    dropNextPut: () => {
      drop = true
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  }
}
let proxy: Proxy

describeNeeding(['radicale'], 'calendar toolset against Radicale on 127.0.0.1', () => {
  beforeAll(async () => {
    radicale = await startRadicale({ alice: PASSWORD })
    await radicale.makeCalendar('alice', 'work', 'Work')
    await radicale.makeCalendar('alice', 'team', 'Team')
    proxy = await startProxy(radicale.port)
    h = await openCalendarHarness({
      accounts: {
        work: { url: radicale.url, user: 'alice' },
        flaky: { url: proxy.url, user: 'alice' },
        wrong: { url: radicale.url, user: 'alice' },
      },
    })
    h.passwords.set('work', PASSWORD)
    h.passwords.set('flaky', PASSWORD)
    h.passwords.set('wrong', 'not-the-password')
  }, 60_000)
  afterAll(async () => {
    await h?.close()
    await proxy?.close()
    await radicale?.stop()
  })

  it('lists the calendars of each account, and names the account whose password is wrong', async () => {
    const listed = await h.call<{
      calendars: { calendar: string; kind: string }[]
      unreachable?: { account: string; error: string }[]
    }>('calendar_list_calendars')
    const names = listed.calendars.map((c) => c.calendar)
    expect(names).toEqual(expect.arrayContaining(['work:Work', 'work:Team', 'flaky:Work']))
    expect(listed.unreachable?.map((u) => u.account)).toEqual(['wrong'])
    expect(listed.unreachable?.[0]?.error).toContain(
      'calendar account "wrong" refused user "alice" and its password',
    )
    const failed = await h.attempt('calendar_list_events', {
      calendar: 'wrong:Work',
      from: '2026-07-01',
      to: '2026-07-31',
    })
    expect(failed.ok ? '' : failed.code).toBe('UNAUTHORIZED')
    expect(failed.ok ? '' : failed.error).toContain('Settings → Calendar')
  })

  it('stores 10:00 Europe/Paris in July as 08:00 UTC, as a second client reading the server sees it', async () => {
    const receipt = await h.call<Receipt>('calendar_create_event', {
      calendar: 'work:Work',
      summary: 'Paris meeting',
      start: '2026-07-14T10:00',
      duration: 60,
      time_zone: 'Europe/Paris',
      attendees: ['bob@example.com'],
    })
    expect(receipt.event.start).toEqual({
      local: '2026-07-14T10:00:00',
      time_zone: 'Europe/Paris',
      utc: '2026-07-14T08:00:00Z',
    })
    expect(receipt.stored.url).toMatch(/\/alice\/work\/.+\.ics$/)
    expect(receipt.stored.etag).toBeTruthy()
    // The server's own time-range filter places it at 08:00–09:00 UTC.
    const at8 = await radicale.report('alice', 'work', { start: '20260714T080000Z', end: '20260714T083000Z' })
    expect(at8).toHaveLength(1)
    expect(at8[0]).toContain(`UID:${receipt.event.uid}`)
    expect(at8[0]).toContain('DTSTART;TZID=Europe/Paris:20260714T100000')
    expect(at8[0]).toContain('BEGIN:VTIMEZONE')
    expect(
      await radicale.report('alice', 'work', { start: '20260714T090000Z', end: '20260714T100000Z' }),
    ).toEqual([])
  })

  it('lists, updates, checks conflicts, finds free slots and deletes through the toolset; the second client agrees', async () => {
    const listed = await h.call<Listing>('calendar_list_events', {
      calendar: 'work:Work',
      from: '2026-07-14',
      to: '2026-07-14',
    })
    expect(listed.events.map((e) => e.summary)).toEqual(['Paris meeting'])
    const uid = listed.events[0]?.uid ?? ''
    const moved = await h.call<Receipt>('calendar_update_event', {
      calendar: 'work:Work',
      uid,
      start: '2026-07-14T14:00',
      summary: 'Moved meeting',
    })
    expect(moved.event).toMatchObject({
      summary: 'Moved meeting',
      start: { utc: '2026-07-14T12:00:00Z' },
      end: { utc: '2026-07-14T13:00:00Z' },
    })
    const stored = await radicale.report('alice', 'work')
    expect(stored).toHaveLength(1)
    expect(stored[0]).toContain('SUMMARY:Moved meeting')
    expect(stored[0]).toContain('DTSTART;TZID=Europe/Paris:20260714T140000')
    const conflict = await h.call<{ free: boolean; conflicts: { uid: string }[] }>(
      'calendar_check_conflicts',
      {
        calendar: 'work:Work',
        start: '2026-07-14T14:30',
        end: '2026-07-14T15:30',
      },
    )
    expect(conflict.conflicts.map((c) => c.uid)).toEqual([uid])
    await h.call('calendar_create_event', {
      calendar: 'work:Team',
      summary: 'Team lunch',
      start: '2026-07-14T12:00',
      end: '2026-07-14T13:30',
    })
    const slots = await h.call<{ slots: { start: string; end: string }[] }>('calendar_find_free_slots', {
      calendars: ['work:Work', 'work:Team'],
      from: '2026-07-14',
      to: '2026-07-14',
      duration: 60,
    })
    expect(slots.slots.map((s) => [s.start.slice(11, 16), s.end.slice(11, 16)])).toEqual([
      ['09:00', '12:00'],
      ['15:00', '17:00'],
    ])
    const removed = await h.call<{ removed: number }>('calendar_delete_event', { calendar: 'work:Work', uid })
    expect(removed.removed).toBe(1)
    expect(await radicale.report('alice', 'work')).toEqual([])
  })

  it('lists a weekly event with one moved occurrence correctly across the DST change (written by another client)', async () => {
    const body = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//other client//EN',
      'BEGIN:VEVENT',
      'UID:weekly-dst',
      'DTSTAMP:20261001T000000Z',
      'DTSTART;TZID=Europe/Paris:20261015T100000',
      'DTEND;TZID=Europe/Paris:20261015T103000',
      'RRULE:FREQ=WEEKLY;COUNT=4',
      'SUMMARY:Weekly',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:weekly-dst',
      'DTSTAMP:20261001T000000Z',
      'RECURRENCE-ID;TZID=Europe/Paris:20261029T100000',
      'DTSTART;TZID=Europe/Paris:20261029T140000',
      'DTEND;TZID=Europe/Paris:20261029T143000',
      'SUMMARY:Weekly (afternoon)',
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join('\r\n')
    const put = await fetch(`${radicale.url}alice/team/weekly-dst.ics`, {
      method: 'PUT',
      headers: { Authorization: radicale.auth('alice'), 'Content-Type': 'text/calendar' },
      body,
    })
    expect(put.status).toBe(201)
    const listed = await h.call<Listing>('calendar_list_events', {
      calendar: 'work:Team',
      from: '2026-10-01',
      to: '2026-11-30',
    })
    expect(listed.events.map((e) => [e.summary, e.start.utc])).toEqual([
      ['Weekly', '2026-10-15T08:00:00Z'],
      ['Weekly', '2026-10-22T08:00:00Z'],
      ['Weekly (afternoon)', '2026-10-29T13:00:00Z'],
      ['Weekly', '2026-11-05T09:00:00Z'],
    ])
  })

  it('a connection dropped mid-write leaves nothing half-written, and the next call reconnects', async () => {
    const before = await radicale.report('alice', 'work')
    proxy.dropNextPut()
    const dropped = await h.attempt('calendar_create_event', {
      calendar: 'flaky:Work',
      summary: 'Dropped',
      start: '2026-07-20T10:00',
    })
    expect(dropped.ok).toBe(false)
    expect(dropped.ok ? '' : dropped.error).toContain('calendar account "flaky"')
    expect(await radicale.report('alice', 'work')).toEqual(before)
    const next = await h.call<Receipt>('calendar_create_event', {
      calendar: 'flaky:Work',
      summary: 'After the drop',
      start: '2026-07-20T10:00',
    })
    expect(next.event.summary).toBe('After the drop')
    const after = await radicale.report('alice', 'work')
    expect(after).toHaveLength(before.length + 1)
    expect(after.join('')).not.toContain('SUMMARY:Dropped')
  })

  it('a CalDAV write is an external write the approval gate asks about; denied, nothing is written; a file write is not asked', async () => {
    const asked: string[] = []
    const approve = createApprovalGate({
      settings: () => ApprovalSettings.parse({}),
      granted: new Set(),
      ask: async (request) => {
        asked.push(`${request.name} (${request.risk})`)
        return 'deny'
      },
    })
    const before = await radicale.report('alice', 'team')
    const denied = await invoke(
      h.session,
      'calendar_create_event',
      { calendar: 'work:Team', summary: 'Denied', start: '2026-07-21T10:00' },
      { approve },
    )
    expect(denied).toMatchObject({ ok: false, stage: 'denied', error: DENIED_BY_USER })
    expect(await radicale.report('alice', 'team')).toEqual(before)
    const file = await invoke(
      h.session,
      'calendar_create_event',
      { calendar: '/calendar/mine.ics', summary: 'Local', start: '2026-07-21T10:00' },
      { approve },
    )
    expect(file.ok).toBe(true)
    expect(asked).toEqual(['calendar_create_event (external)'])
  })
})
