import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadCalendarToolset } from '../src/main/calendar'
import { createToolSession, invoke } from '../src/main/tools'
import { createWorkspace } from '../src/main/workspace'
import { CalendarSettings } from '../src/shared/settings'
import { bigCalendar } from '../test/main/calendar/bigCalendar'
import { startRadicale } from '../test/support/radicale'
import { missingRequirements } from '../test/support/requirements'
import { median } from './support'
import type { BenchRow } from './types'

// The calendar toolset: list March from a 10,000-event .ics (first call parses, then the parse is
// reused) and from Radicale holding 2,000 of them; free slots across three 2,000-event files.

const RUNS = 5
/** Radicale takes a whole calendar in one PUT, slowly: fewer events there. */
const REMOTE = 2_000

async function timed<T>(run: () => Promise<T>): Promise<number> {
  const started = performance.now()
  await run()
  return performance.now() - started
}

export default async function calendarBench(): Promise<BenchRow[]> {
  const dir = await mkdtemp(join(tmpdir(), 'bureau-calendar-bench-'))
  const workspace = createWorkspace({ root: dir, history: false })
  const password = 'bench-password'
  const radicale =
    missingRequirements(['radicale']).length === 0 ? await startRadicale({ alice: password }) : undefined
  const settings = CalendarSettings.parse({
    timeZone: 'UTC',
    accounts: radicale ? { bench: { url: radicale.url, user: 'alice' } } : {},
  })
  const session = createToolSession({
    toolsets: [await loadCalendarToolset({ settings: () => settings, password: async () => password })],
    workspace,
  })
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await invoke(session, name, args)
    if (!result.ok) throw new Error(`${name}: ${result.error}`)
    return result.value as { total?: number; slots?: unknown[] }
  }
  const rows: BenchRow[] = []
  try {
    const big = bigCalendar(10_000)
    await workspace.writeFile('/calendar/big.ics', big)
    const month = { calendar: '/calendar/big.ics', from: '2026-03-01', to: '2026-03-31', limit: 100 }
    const cold = await timed(() => call('calendar_list_events', month))
    const warm: number[] = []
    for (let i = 0; i < RUNS; i++) warm.push(await timed(() => call('calendar_list_events', month)))
    const total = (await call('calendar_list_events', month)).total ?? 0
    rows.push(
      {
        name: '.ics 10,000 events: list a month, first call',
        value: cold,
        unit: 'ms',
        target: '< 3000',
        pass: cold < 3000,
        note: `${total} events, ${(big.length / 1e6).toFixed(1)} MB`,
      },
      {
        name: '.ics 10,000 events: list a month, parse reused',
        value: median(warm),
        unit: 'ms',
        target: '< 1000',
        pass: median(warm) < 1000,
        note: `median of ${RUNS}`,
      },
    )
    for (const [i, name] of ['a', 'b', 'c'].entries())
      await workspace.writeFile(`/calendar/${name}.ics`, bigCalendar(2_000, i + 7))
    const slots = {
      calendars: ['/calendar/a.ics', '/calendar/b.ics', '/calendar/c.ics'],
      from: '2026-03-02',
      to: '2026-03-13',
      duration: 30,
      working_hours: 'any',
    }
    const firstSlots = await timed(() => call('calendar_find_free_slots', slots))
    const slotRuns: number[] = []
    for (let i = 0; i < RUNS; i++) slotRuns.push(await timed(() => call('calendar_find_free_slots', slots)))
    rows.push(
      { name: 'free slots, 3 calendars x 2,000 events, first call', value: firstSlots, unit: 'ms' },
      {
        name: 'free slots, 3 calendars x 2,000 events',
        value: median(slotRuns),
        unit: 'ms',
        target: '< 1000',
        pass: median(slotRuns) < 1000,
        note: `two weeks, median of ${RUNS}`,
      },
    )
    if (radicale) {
      await radicale.makeCalendar('alice', 'big', 'Big')
      const remoteText = bigCalendar(REMOTE)
      const upload = await fetch(`${radicale.url}alice/big/`, {
        method: 'PUT',
        headers: { Authorization: radicale.auth('alice'), 'Content-Type': 'text/calendar' },
        body: remoteText,
      }).catch((error: unknown) => {
        throw new Error(`uploading ${REMOTE} events to Radicale: ${String((error as Error).cause ?? error)}`)
      })
      if (!upload.ok) throw new Error(`uploading to Radicale: HTTP ${upload.status}`)
      const remote = { ...month, calendar: 'bench:Big' }
      const runs: number[] = []
      for (let i = 0; i < RUNS; i++) runs.push(await timed(() => call('calendar_list_events', remote)))
      const remoteTotal = (await call('calendar_list_events', remote)).total ?? 0
      rows.push({
        name: `Radicale ${REMOTE.toLocaleString('en')} events: list a month`,
        value: median(runs),
        unit: 'ms',
        target: '< 5000',
        pass: median(runs) < 5000,
        note: `${remoteTotal} events, a new connection per call (discovery included), median of ${RUNS}`,
      })
    } else rows.push({ name: 'Radicale', value: 0, unit: '', note: 'skipped: Radicale is not installed' })
  } finally {
    await session.dispose()
    await workspace.close()
    await radicale?.stop()
    await rm(dir, { recursive: true, force: true })
  }
  return rows
}
