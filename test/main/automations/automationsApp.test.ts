import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { type BureauApp, createApp } from '../../../src/main/app'
import { type DesktopNotification, silentLogger } from '../../../src/main/platform'
import { emailPasswordSecret } from '../../../src/shared/settings'
import { type SmtpRecorder, startSmtpRecorder } from '../../support/mailServers'
import { type ScriptedLlm, startScriptedLlm } from '../../support/scriptedLlm'
import { scriptedProviderEnv } from '../../support/scriptedProviderEnv'
import { stubEnv } from '../../support/stubEnv'
import { tempDirs } from '../../support/tempDir'

// The runner in the real app: the scripted model, the real chat service, the workspace watcher.

const dirs = tempDirs('bureau-automations-app-')
let llm: ScriptedLlm
let app: BureauApp
let workspace: string
let smtp: SmtpRecorder
const events: { event: string; payload: unknown }[] = []
// The desktop shell's seam: a system notifier that records, then hands on to the headless one.
const notified: DesktopNotification[] = []

beforeAll(async () => {
  llm = await startScriptedLlm()
  stubEnv(scriptedProviderEnv(llm, 'sk-scripted-0123456789'))
  workspace = await dirs.make()
  app = await createApp({
    host: 'web',
    dataDir: await dirs.make(),
    workspaceDir: workspace,
    logger: silentLogger,
    noIndex: true,
    notifier: (fallback) => ({
      native: true,
      notify(notification) {
        notified.push(notification)
        fallback.notify(notification)
      },
    }),
  })
  app.events.subscribe((event, payload) => events.push({ event, payload }))
  smtp = await startSmtpRecorder({ users: { alice: 'alice-secret' }, deliver: () => undefined })
  await app.settings.update({
    email: {
      accounts: {
        work: {
          imap: { host: '127.0.0.1', port: 1, tls: false },
          smtp: { host: '127.0.0.1', port: smtp.port, tls: false },
          user: 'alice',
          from: 'alice@bureau.test',
          displayName: 'Alice',
        },
      },
    },
  })
  await app.settings.setSecret(emailPasswordSecret('work'), 'alice-secret')
}, 60_000)

afterAll(async () => {
  await app?.dispose()
  await smtp?.close()
  await llm?.close()
  vi.unstubAllEnvs()
  await dirs.cleanup()
})

beforeEach(() => {
  llm.reset()
  events.length = 0
})

const service = () => app.automations
const ctx = () => ({ senderId: 'test', signal: new AbortController().signal })

async function create(draft: Record<string, unknown>) {
  const result = await app.router.dispatch('automations.create', draft, ctx())
  if (!result.ok) throw new Error(JSON.stringify(result.error))
  return result.value as { id: string }
}

describe('automations in the app', () => {
  it('a file written into a watched folder starts exactly one run that receives it', async () => {
    await mkdir(join(workspace, 'inbox'))
    const automation = await create({
      name: 'Invoices',
      prompt: 'Read the attached invoice and give its total.',
      trigger: { kind: 'file', folder: '/inbox', glob: '*.txt' },
    })
    await service().settled()
    llm.setResponder(() => ({ text: 'The total is 42 EUR.' }))
    await writeFile(join(workspace, 'inbox', 'ignored.md'), 'not matched')
    await writeFile(join(workspace, 'inbox', 'invoice-7.txt'), 'Invoice 7, total 42 EUR')
    await vi.waitFor(
      async () => {
        const runs = await service().summaries()
        const mine = runs.find((s) => s.automation.id === automation.id)
        expect(mine?.lastRun?.status).toBe('ok')
      },
      { timeout: 20_000, interval: 100 },
    )
    const history = (await app.router.dispatch('automations.history', { id: automation.id }, ctx())) as {
      ok: true
      value: { detail?: string; conversationId?: string; message: string }[]
    }
    expect(history.value).toHaveLength(1)
    expect(history.value[0]?.detail).toBe('/inbox/invoice-7.txt')
    expect(history.value[0]?.message).toContain('42 EUR')
    // The model saw the file's text, and the run is a conversation the user can open.
    expect(JSON.stringify(llm.requests[0]?.body)).toContain('Invoice 7, total 42 EUR')
    const conversation = await app.chat.get(history.value[0]!.conversationId!)
    expect(conversation.title).toMatch(/^Invoices · /)
    expect(events.some((e) => e.event === 'automations.runEnded')).toBe(true)
    await service().idle()
    expect(llm.requests).toHaveLength(1)
  }, 30_000)

  it('at level read a run that tries to send mail is denied, nothing is sent, the denial is in the history and the notice', async () => {
    const automation = await create({
      name: 'Mailer',
      prompt: 'Send Anna the weekly report.',
      trigger: { kind: 'manual' },
      approve: 'read',
    })
    // Asked until the gate has answered: the first call only opens the email toolset (disclosure).
    llm.setResponder((info) => {
      const last = JSON.stringify(info.messages.at(-1) ?? {})
      if (/Denied/.test(last)) return { text: 'I could not send the mail: it needs approval.' }
      return {
        toolCalls: [
          {
            name: 'email_send',
            arguments: { to: ['anna@example.com'], subject: 'Report', markdown: 'Here it is.' },
          },
        ],
      }
    })
    const run = await service().runNow(automation.id)
    expect(run.status).toBe('denied')
    expect(run.denials[0]).toMatchObject({
      call: expect.stringMatching(/email/),
      outcome: 'denied',
      risk: 'external',
    })
    expect(run.denials[0]?.reason).toMatch(/approval level "read"/)
    expect(smtp.received).toHaveLength(0)
    const history = await service().summaries()
    expect(history.find((s) => s.automation.id === automation.id)?.lastRun?.denials).toHaveLength(1)
    const ended = events.find((e) => e.event === 'automations.runEnded')?.payload as {
      run: { status: string }
    }
    expect(ended.run.status).toBe('denied')
    expect(app.notices.list().some((n) => /Mailer.*denied/.test(n.message))).toBe(true)
    expect(ended).toMatchObject({ notified: true })
    expect(notified.at(-1)).toEqual({
      title: 'Automation "Mailer"',
      body: '1 call(s) denied (email_send).',
      level: 'warning',
      tag: `automation:${automation.id}`,
    })
  }, 30_000)

  it('the result goes by e-mail through the email toolset: sent at level all, denied and not sent at level read', async () => {
    llm.setResponder(() => ({ text: 'Sales this week: 1,234 EUR.' }))
    const before = smtp.received.length
    const mailed = await create({
      name: 'Weekly sales',
      prompt: 'Sum up the week.',
      trigger: { kind: 'manual' },
      approve: 'all',
      output: { kind: 'email', to: ['anna@example.com'] },
    })
    const sent = await service().runNow(mailed.id)
    expect(sent.status).toBe('ok')
    expect(smtp.received).toHaveLength(before + 1)
    const mail = smtp.received.at(-1)
    expect(mail?.to).toEqual(['anna@example.com'])
    expect(mail?.raw.toString()).toContain('Sales this week: 1,234 EUR.')
    expect(mail?.raw.toString()).toContain('Subject: Bureau automation: Weekly sales')

    const held = await create({
      name: 'Weekly sales, read only',
      prompt: 'Sum up the week.',
      trigger: { kind: 'manual' },
      approve: 'read',
      output: { kind: 'email', to: ['anna@example.com'] },
    })
    const denied = await service().runNow(held.id)
    expect(denied.status).toBe('denied')
    expect(denied.message).toContain('1,234 EUR')
    expect(denied.denials).toEqual([
      expect.objectContaining({ call: expect.stringMatching(/email/), risk: 'external', outcome: 'denied' }),
    ])
    expect(smtp.received).toHaveLength(before + 1)
  }, 30_000)

  it('the scripted model creates an automation from chat: the approval card appears; after approval it is listed and runs', async () => {
    llm.setResponder((info) => {
      const last = JSON.stringify(info.messages.at(-1) ?? {})
      if (/stored/.test(last)) return { text: 'Done: every Monday at 9:00.' }
      return {
        toolCalls: [
          {
            name: 'automations_create',
            arguments: {
              name: 'Monday reminder',
              prompt: 'Remind me of the timesheet.',
              every: 'every monday at 9:00',
            },
          },
        ],
      }
    })
    const sent = await app.chat.send({ text: 'Remind me every Monday at 9 to send the timesheet.' })
    await vi.waitFor(() => expect(events.some((e) => e.event === 'agent.approval')).toBe(true), {
      timeout: 10_000,
    })
    expect((await service().summaries()).some((s) => s.automation.name === 'Monday reminder')).toBe(false)
    const card = events.find((e) => e.event === 'agent.approval')?.payload as {
      call: { approvalId: string; name: string; args: Record<string, unknown> }
    }
    expect(card.call.name).toMatch(/automations/)
    expect(card.call.args).toMatchObject({ name: 'Monday reminder' })
    expect(app.chat.approve(sent.runId, card.call.approvalId, 'once')).toBe(true)
    await app.chat.idle()
    const listed = (await service().summaries()).find((s) => s.automation.name === 'Monday reminder')
    expect(listed?.automation.trigger).toMatchObject({ kind: 'schedule', cron: '0 9 * * 1' })
    expect(listed?.nextRuns).toHaveLength(5)
    llm.setResponder(() => ({ text: 'Reminder: send the timesheet.' }))
    const run = await service().runNow('Monday reminder')
    expect(run).toMatchObject({ status: 'ok', message: 'Reminder: send the timesheet.' })
  }, 30_000)

  it('a model that loops is ended by the step budget and the run is marked failed with the reason', async () => {
    const automation = await create({
      name: 'Looper',
      prompt: 'List the files.',
      trigger: { kind: 'manual' },
      maxSteps: 3,
    })
    llm.setResponder(() => ({ toolCalls: [{ name: 'files_list', arguments: { path: '/' } }] }))
    const run = await service().runNow(automation.id)
    expect(run.status).toBe('failed')
    expect(run.error).toMatch(/step budget \(3 steps\)/)
  }, 30_000)
})
