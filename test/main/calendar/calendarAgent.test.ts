import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadCalendarToolset } from '../../../src/main/calendar'
import { CalendarSettings } from '../../../src/shared/settings'
import { agentSuite, run, scriptedModel, sent, systemPrompt, workspaceAt } from '../agent/support'

const suite = agentSuite('bureau-calendar-agent-')

const calendar = (uid: string, start: string, end: string) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//t//EN',
    'BEGIN:VEVENT',
    `UID:${uid}`,
    'DTSTAMP:20260101T000000Z',
    `DTSTART:${start}`,
    `DTEND:${end}`,
    `SUMMARY:${uid}`,
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n')

async function workspaceWithPeople(): Promise<string> {
  const root = await suite.dirs.make()
  await mkdir(join(root, 'calendar'))
  // Alice is busy 09:00–12:00 Paris and Bob 13:00–16:30: the first free hour for both is 12:00.
  await writeFile(
    join(root, 'calendar/Alice.ics'),
    calendar('alice-busy', '20260715T070000Z', '20260715T100000Z'),
  )
  await writeFile(
    join(root, 'calendar/Bob.ics'),
    calendar('bob-busy', '20260715T110000Z', '20260715T143000Z'),
  )
  return root
}

/** The first slot start the last tool result names: the scripted model books what the toolset found. */
function firstSlot(messages: ReturnType<typeof sent>): string {
  const result = [...messages].reverse().find((m) => m.role === 'tool')?.content ?? ''
  const found = /2026-07-15T\d\d:\d\d:\d\d/.exec(result)
  if (!found) throw new Error(`no slot in the tool result: ${result}`)
  return found[0]
}

const env = {
  settings: () => CalendarSettings.parse({ timeZone: 'Europe/Paris' }),
  password: async () => undefined,
}

describe('a scripted model books a meeting in a free slot found with find_free_slots', () => {
  for (const mode of ['api', 'cli'] as const) {
    it(`${mode} mode`, async () => {
      const root = await workspaceWithPeople()
      const toolsets = [await loadCalendarToolset(env)]
      const find = { people: ['Alice', 'Bob'], from: '2026-07-15', to: '2026-07-15', duration: 60 }
      if (mode === 'api')
        suite.llm.push(
          { toolCalls: [{ name: 'open_toolset', arguments: { toolset: 'calendar' } }] },
          { toolCalls: [{ name: 'calendar_find_free_slots', arguments: find }] },
        )
      else
        suite.llm.push({
          toolCalls: [
            {
              name: 'cli',
              arguments: {
                command:
                  'calendar find_free_slots --people Alice,Bob --from 2026-07-15 --to 2026-07-15 --duration 60',
              },
            },
          ],
        })
      let booked = ''
      suite.llm.setResponder((info) => {
        if (booked) return { toolCalls: [{ name: 'done', arguments: { message: `Booked at ${booked}.` } }] }
        booked = firstSlot(info.messages as ReturnType<typeof sent>)
        const args = {
          calendar: '/calendar/Alice.ics',
          summary: 'Planning with Bob',
          start: booked,
          duration: 60,
          attendees: ['bob@example.com'],
        }
        return mode === 'api'
          ? { toolCalls: [{ name: 'calendar_create_event', arguments: args }] }
          : {
              toolCalls: [
                {
                  name: 'cli',
                  arguments: {
                    command: `calendar create_event --calendar /calendar/Alice.ics --summary "Planning with Bob" --start ${booked} --duration 60 --attendees bob@example.com`,
                  },
                },
              ],
            }
      })
      const { result } = await run({
        prompt:
          'Find an hour on 15 July when Alice and Bob are both free and put a meeting in Alice’s calendar.',
        model: scriptedModel(suite.llm),
        toolsets,
        interactionMode: mode,
        workspace: workspaceAt(root),
        clock: { timeZone: 'Europe/Paris', now: () => new Date('2026-07-10T09:00:00Z') },
      })
      expect(result.status).toBe('done')
      expect(booked).toBe('2026-07-15T12:00:00')
      expect(result.steps.map((s) => s.method)).toEqual(['calendar.find_free_slots', 'calendar.create_event'])
      const text = await readFile(join(root, 'calendar/Alice.ics'), 'utf8')
      expect(text).toContain('DTSTART;TZID=Europe/Paris:20260715T120000')
      expect(text).toContain('SUMMARY:Planning with Bob')
      expect(text).toContain('ATTENDEE')
      // The receipt the model read back names the stored time in UTC.
      const last =
        sent(suite.llm.requests.at(-1))
          .filter((m) => m.role === 'tool')
          .at(-1)?.content ?? ''
      expect(last).toContain('2026-07-15T10:00:00Z')
      expect(systemPrompt(suite.llm.requests[0])).toContain(
        'Today is Friday, 10 July 2026 (2026-07-10); the user’s time zone is Europe/Paris.',
      )
    })
  }
})
