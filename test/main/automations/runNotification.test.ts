import { describe, expect, it } from 'vitest'
import { runNotification } from '../../../src/main/automations'
import { createNoticeCenter, noticeNotifier } from '../../../src/main/platform'
import { Automation, type AutomationRun } from '../../../src/shared/automations'
import type { AppNotice } from '../../../src/shared/ipc'

const automation = Automation.parse({
  id: 'a1',
  name: 'Inbox summary',
  prompt: 'Summarize.',
  trigger: { kind: 'manual' },
  createdAt: '2026-12-01T08:00:00.000Z',
  updatedAt: '2026-12-01T08:00:00.000Z',
})
const run = (patch: Partial<AutomationRun>): AutomationRun => ({
  id: 'r1',
  automationId: 'a1',
  cause: 'manual',
  startedAt: '2026-12-01T08:00:00.000Z',
  finishedAt: '2026-12-01T08:00:05.000Z',
  status: 'ok',
  message: 'Three new mails from clients.',
  denials: [],
  steps: 2,
  usage: { inputTokens: 1, outputTokens: 1 },
  ...patch,
})

describe('notifications of finished runs', () => {
  it('says the answer of a good run, and what went wrong otherwise', () => {
    expect(runNotification(automation, run({}))).toEqual({
      title: 'Automation "Inbox summary"',
      body: 'Three new mails from clients.',
      level: 'info',
      tag: 'automation:a1',
    })
    const denied = runNotification(
      automation,
      run({ status: 'denied', denials: [{ call: 'email_send', risk: 'external', outcome: 'denied' }] }),
    )
    expect(denied).toMatchObject({ level: 'warning', body: '1 call(s) denied (email_send).' })
    const failed = runNotification(automation, run({ status: 'failed', error: 'The model timed out' }))
    expect(failed).toMatchObject({ level: 'warning', body: 'failed — The model timed out.' })
    expect(runNotification(automation, run({ message: 'x'.repeat(500) })).body).toHaveLength(200)
  })

  it('the headless host notifies through the notice center, one notice per automation', () => {
    const emitted: AppNotice[] = []
    const notices = createNoticeCenter((notice) => emitted.push(notice))
    const notifier = noticeNotifier(notices)
    expect(notifier.native).toBe(false)
    notifier.notify(runNotification(automation, run({ status: 'failed', error: 'No network' })))
    notifier.notify(runNotification(automation, run({})))
    expect(emitted.map((n) => n.level)).toEqual(['warning', 'info'])
    expect(notices.list()).toEqual([
      {
        level: 'info',
        message: 'Automation "Inbox summary": Three new mails from clients.',
        id: 'automation:a1',
      },
    ])
  })
})
