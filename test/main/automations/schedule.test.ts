import { afterEach, describe, expect, it } from 'vitest'
import {
  type AutomationRunner,
  createAutomationRunner,
  createAutomationService,
  nextRuns,
  openAutomationStore,
  parseSchedule,
} from '../../../src/main/automations'
import { tempDirs } from '../../support/tempDir'
import { fakeClock, recordingExecutor } from './support'

const dirs = tempDirs('bureau-automations-')
let runner: AutomationRunner | undefined
afterEach(async () => {
  await runner?.stop()
  runner = undefined
  await dirs.cleanup()
})

describe('schedules', () => {
  it('turns plain forms into cron', () => {
    expect(parseSchedule('every weekday at 8:00').cron).toBe('0 8 * * 1-5')
    expect(parseSchedule('weekday at 8:00').cron).toBe('0 8 * * 1-5')
    expect(parseSchedule('every hour').cron).toBe('0 * * * *')
    expect(parseSchedule('every 15 minutes').cron).toBe('*/15 * * * *')
    expect(parseSchedule('every friday at 4pm').cron).toBe('0 16 * * 5')
    expect(parseSchedule('every mon, wed and fri at 9:30').cron).toBe('30 9 * * 1,3,5')
    expect(parseSchedule('every month on the 1st at 9:00').cron).toBe('0 9 1 * *')
    expect(parseSchedule('0 8 * * 1-5')).toEqual({ cron: '0 8 * * 1-5' })
  })

  it('names the field and column of a bad cron expression, and refuses unknown words', () => {
    expect(() => parseSchedule('0 8 32 * *')).toThrow(/day of month field "32" at column 5.*1–31/)
    expect(() => parseSchedule('0 8 * * * * *')).toThrow(/needs 5 fields.*it has 7/)
    expect(() => parseSchedule('every blue moon')).toThrow(/not a schedule Bureau knows/)
    expect(() => parseSchedule('every day at 25:00')).toThrow(/not a time of day/)
    expect(() => parseSchedule('every 7 minutes')).toThrow(/divides 60/)
  })

  it('is DST-correct: 8:00 in Berlin is 7:00 UTC before the change and 6:00 after', () => {
    const runs = nextRuns('0 8 * * *', 'Europe/Berlin', new Date('2026-03-27T12:00:00Z'), 4)
    expect(runs.map((d) => d.toISOString())).toEqual([
      '2026-03-28T07:00:00.000Z',
      '2026-03-29T06:00:00.000Z',
      '2026-03-30T06:00:00.000Z',
      '2026-03-31T06:00:00.000Z',
    ])
    // 2:30 does not exist on the night of the change: it runs once, not never and not twice.
    const gap = nextRuns('30 2 * * *', 'Europe/Berlin', new Date('2026-03-28T12:00:00Z'), 2)
    expect(gap).toHaveLength(2)
    expect(new Date(gap[1]!).getTime() - new Date(gap[0]!).getTime()).toBeGreaterThan(20 * 3600_000)
  })
})

describe('the runner on a fake clock', () => {
  async function setUp(start: string) {
    const clock = fakeClock(start)
    const store = openAutomationStore({ dataDir: await dirs.make(), now: clock.now })
    const service = createAutomationService({
      store,
      context: { timeZone: () => 'Europe/Berlin' },
      now: clock.now,
    })
    const recorder = recordingExecutor()
    recorder.followClock(clock.now)
    const make = () =>
      createAutomationRunner({
        store,
        executor: () => recorder.executor,
        now: clock.now,
        timers: clock.timers,
        maxSleepMs: 7 * 24 * 3600_000,
      })
    return { clock, store, service, recorder, make }
  }

  it('runs "every weekday at 8:00" across a DST change and a month end at the right instants', async () => {
    const { clock, service, recorder, make } = await setUp('2026-03-26T12:00:00Z')
    await service.create({
      name: 'Inbox summary',
      prompt: 'Summarize new mail.',
      trigger: { kind: 'schedule', cron: 'every weekday at 8:00' },
    })
    runner = make()
    await runner.start()
    expect(clock.pending()).toBe(1)
    await clock.advanceTo('2026-04-02T00:00:00Z', () => runner!.idle())
    await runner.idle()
    expect(recorder.calls.map((c) => c.at.toISOString())).toEqual([
      '2026-03-27T07:00:00.000Z', // Friday, CET
      '2026-03-30T06:00:00.000Z', // Monday, CEST
      '2026-03-31T06:00:00.000Z', // Tuesday, the month's last day
      '2026-04-01T06:00:00.000Z', // Wednesday, the next month
    ])
    expect(recorder.calls[0]?.approve).toBe('read')
    expect(recorder.calls[0]?.withoutToolsets).toContain('automations')
    const history = await service.history('Inbox summary')
    expect(history.map((r) => r.status)).toEqual(['ok', 'ok', 'ok', 'ok'])
    expect(history[0]?.conversationId).toBe('c4')
  })

  it('runs "every month on the 31st" only in months that have one', async () => {
    const { clock, service, recorder, make } = await setUp('2026-03-01T00:00:00Z')
    await service.create({
      name: 'Month end',
      prompt: 'Close the month.',
      trigger: { kind: 'schedule', cron: '0 18 31 * *', timeZone: 'UTC' },
    })
    runner = make()
    await runner.start()
    await clock.advanceTo('2026-06-01T00:00:00Z', () => runner!.idle())
    await runner.idle()
    expect(recorder.calls.map((c) => c.at.toISOString())).toEqual([
      '2026-03-31T18:00:00.000Z',
      '2026-05-31T18:00:00.000Z',
    ])
  })

  it('a schedule missed while closed runs once at start (run-once), or is recorded as skipped', async () => {
    const { clock, store, service, recorder, make } = await setUp('2026-03-02T06:00:00Z')
    await service.create({
      name: 'Daily',
      prompt: 'Go.',
      trigger: { kind: 'schedule', cron: 'every day at 9:00' },
    })
    await service.create({
      name: 'Daily skip',
      prompt: 'Go.',
      trigger: { kind: 'schedule', cron: 'every day at 9:00' },
      missed: 'skip',
    })
    // Closed for three days: three 9:00 slots pass with no runner.
    await clock.advanceTo('2026-03-05T12:00:00Z')
    runner = make()
    await runner.start()
    await runner.idle()
    expect(recorder.calls).toHaveLength(1)
    expect(recorder.calls[0]?.prompt).toMatch(/missed while Bureau was closed/)
    const daily = await service.history('Daily')
    expect(daily.map((r) => [r.cause, r.status, r.detail])).toEqual([
      ['missed', 'ok', '2026-03-05T08:00:00.000Z'],
    ])
    const skipped = await service.history('Daily skip')
    expect(skipped.map((r) => [r.cause, r.status])).toEqual([['missed', 'skipped']])
    // A second start does not run the same slot again.
    await runner.stop()
    runner = make()
    await runner.start()
    await runner.idle()
    expect(recorder.calls).toHaveLength(1)
    expect((await store.get('Daily')).lastSlot).toBe('2026-03-05T08:00:00.000Z')
  })

  it('a run still marked running from a closed app is marked interrupted at start', async () => {
    const { service, store, make } = await setUp('2026-03-02T06:00:00Z')
    const automation = await service.create({ name: 'Manual', prompt: 'Go.', trigger: { kind: 'manual' } })
    await store.saveRun({
      id: 'r1',
      automationId: automation.id,
      cause: 'manual',
      startedAt: '2026-03-02T05:00:00.000Z',
      status: 'running',
      message: '',
      denials: [],
      steps: 0,
      usage: { inputTokens: 0, outputTokens: 0 },
    })
    runner = make()
    await runner.start()
    const [run] = await service.history('Manual')
    expect(run).toMatchObject({
      id: 'r1',
      status: 'interrupted',
      error: 'Bureau was closed during this run.',
    })
  })

  it('runs one at a time per automation and at most the global limit together', async () => {
    const { service, store } = await setUp('2026-03-02T06:00:00Z')
    let active = 0
    let most = 0
    const perAutomation = new Map<string, number>()
    let overlap = false
    const slow = {
      async runUnattended(input: { title: string }) {
        active++
        most = Math.max(most, active)
        const name = input.title.split(' · ')[0] ?? ''
        perAutomation.set(name, (perAutomation.get(name) ?? 0) + 1)
        if ((perAutomation.get(name) ?? 0) > 1) overlap = true
        await new Promise((r) => setTimeout(r, 250))
        perAutomation.set(name, (perAutomation.get(name) ?? 0) - 1)
        active--
        return {
          conversationId: 'c',
          status: 'ok' as const,
          message: 'ok',
          decisions: [],
          usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 },
          files: [],
          steps: 1,
        }
      },
    }
    const names = ['A', 'B', 'C', 'D']
    for (const name of names) await service.create({ name, prompt: 'Go.', trigger: { kind: 'manual' } })
    runner = createAutomationRunner({ store, executor: () => slow, maxConcurrent: 2 })
    await runner.start()
    const done = names.flatMap((name) => [runner!.runNow(name), runner!.runNow(name)])
    const runs = await Promise.all(done)
    expect(runs).toHaveLength(8)
    expect(runs.every((r) => r.status === 'ok')).toBe(true)
    expect(most).toBe(2)
    expect(overlap).toBe(false)
  })

  it('refuses a bad draft with a clear error and stores nothing', async () => {
    const { service } = await setUp('2026-03-02T06:00:00Z')
    await expect(
      service.create({ name: 'Bad', prompt: 'Go.', trigger: { kind: 'schedule', cron: '61 * * * *' } }),
    ).rejects.toThrow(/minute field "61" at column 1/)
    await expect(service.create({ name: '', prompt: 'Go.', trigger: { kind: 'manual' } })).rejects.toThrow(
      /needs a name/,
    )
    await expect(
      service.create({
        name: 'Zone',
        prompt: 'Go.',
        trigger: { kind: 'schedule', cron: 'every hour', timeZone: 'Mars/Base' },
      }),
    ).rejects.toThrow(/not a time zone/)
    expect(await service.list()).toEqual([])
    expect(service.preview('every weekday at 8:00', 'Europe/Berlin').next).toHaveLength(5)
  })
})
