import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { isAppError } from '../../../src/shared/errors'
import type { EventName } from '../../../src/shared/ipc'
import { type IpcHost, startIpcHost } from '../../support/ipcHost'
import { hostSuite, sent, sentTools, systemPrompt } from './support'

const TOKEN = 'chat-ipc-token'
const suite = hostSuite('bureau-chat-ipc-', 'sk-ipc-test')

const CHAT_EVENTS: EventName[] = [
  'chat.delta',
  'chat.attachment',
  'agent.step',
  'agent.question',
  'agent.done',
]

const start = () =>
  startIpcHost({
    dataDir: suite.dataDir,
    workspaceDir: suite.workspaceDir,
    token: TOKEN,
    events: CHAT_EVENTS,
  })

const doneOf = async (running: IpcHost, runId: string) =>
  (await running.waitForEvent((e) => e.event === 'agent.done' && e.payload.runId === runId)).payload

describe('chat over the HTTP host', () => {
  it('chat.send returns at once; attachment, step, delta and done events follow; the conversation survives a restart', async () => {
    suite.llm.push(
      { text: 'Reading the notes.', toolCalls: [{ name: 'open_toolset', arguments: { toolset: 'files' } }] },
      { toolCalls: [{ name: 'files_read', arguments: { path: '/inbox/notes.txt' } }] },
      {
        toolCalls: [
          { name: 'files_write_text', arguments: { path: '/summary.txt', content: 'Budget approved.' } },
        ],
      },
      {
        toolCalls: [
          { name: 'done', arguments: { message: 'Summary saved.', attachments: ['/summary.txt'] } },
        ],
      },
    )
    const first = await start()
    const sendResult = await first.client.invoke('chat.send', {
      text: 'Summarize my notes',
      attachments: [
        { name: 'notes.txt', bytes: new TextEncoder().encode('The budget was approved on Monday.') },
      ],
    })
    expect(sendResult).toEqual({
      conversationId: expect.any(String),
      runId: expect.any(String),
      userMessageId: expect.any(String),
      assistantMessageId: expect.any(String),
    })
    const done = (await doneOf(first, sendResult.runId)) as { message: Record<string, unknown> }
    expect(done.message).toMatchObject({
      id: sendResult.assistantMessageId,
      role: 'assistant',
      status: 'done',
      text: 'Reading the notes.\n\nSummary saved.',
      files: [{ agentPath: '/summary.txt', name: 'summary.txt', size: 16 }],
    })
    expect(await readFile(join(suite.workspaceDir, 'summary.txt'), 'utf8')).toBe('Budget approved.')
    // The model saw the converted attachment.
    const user = sent(suite.llm.requests[0]).find((m) => m.role === 'user')?.content ?? ''
    expect(user).toContain('The budget was approved on Monday.')

    const ofRun = first.events.filter((e) => e.payload.runId === sendResult.runId)
    const attachment = ofRun.filter((e) => e.event === 'chat.attachment')
    expect(attachment.at(-1)?.payload).toMatchObject({
      messageId: sendResult.userMessageId,
      index: 0,
      attachment: { name: 'notes.txt', status: 'converted', agentPath: '/inbox/notes.txt' },
    })
    const deltas = ofRun.filter((e) => e.event === 'chat.delta').map((e) => e.payload.text)
    expect(deltas.join('')).toBe('Reading the notes.\n\nSummary saved.')
    const steps = ofRun
      .filter((e) => e.event === 'agent.step')
      .map((e) => {
        const step = e.payload.step as { method: string }
        return `${e.payload.phase}:${step.method}`
      })
    expect(steps).toEqual([
      'started:files.read',
      'finished:files.read',
      'started:files.write_text',
      'finished:files.write_text',
    ])
    await first.stop()

    // A new app instance on the same data folder sees the conversation as it was saved.
    const second = await start()
    const list = await second.client.invoke('conversations.list', {})
    expect(list).toEqual([
      expect.objectContaining({
        id: sendResult.conversationId,
        title: 'Summarize my notes',
        messageCount: 2,
      }),
    ])
    const conversation = await second.client.invoke('conversations.get', { id: sendResult.conversationId })
    const [userMessage, assistant] = conversation.messages
    expect(userMessage).toMatchObject({
      role: 'user',
      text: 'Summarize my notes',
      attachments: [{ name: 'notes.txt', status: 'converted', agentPath: '/inbox/notes.txt' }],
    })
    expect(assistant?.steps.map((s) => [s.method, s.status])).toEqual([
      ['files.read', 'ok'],
      ['files.write_text', 'ok'],
    ])
    expect(assistant?.usage?.inputTokens).toBeGreaterThan(0)
    expect(assistant?.files).toEqual([{ agentPath: '/summary.txt', name: 'summary.txt', size: 16 }])

    // A follow-up in the same conversation carries the earlier turns to the model.
    suite.llm.push({ text: 'It says the budget was approved.' })
    const followUp = await second.client.invoke('chat.send', {
      conversationId: sendResult.conversationId,
      text: 'What did it say?',
    })
    await doneOf(second, followUp.runId)
    const history = sent(suite.llm.requests.at(-1)).map((m) => `${m.role}:${m.content ?? ''}`)
    expect(history).toEqual([
      expect.stringMatching(/^system:/),
      expect.stringMatching(/^user:Summarize my notes/),
      'assistant:Reading the notes.\n\nSummary saved.',
      'user:What did it say?',
    ])
    await second.stop()
  })

  it('chat.cancel stops the model request; the message is saved as cancelled', async () => {
    suite.llm.push({ text: 'one two three four five six', stallAfterChunks: 2 })
    const running = await start()
    const { runId, conversationId, assistantMessageId } = await running.client.invoke('chat.send', {
      text: 'Tell me a long story',
    })
    await running.waitForEvent((e) => e.event === 'chat.delta')
    expect(await running.client.invoke('chat.cancel', { runId })).toEqual({ cancelled: true })
    const done = (await doneOf(running, runId)) as { message: { status: string; text: string } }
    expect(done.message.status).toBe('cancelled')
    expect(done.message.text.length).toBeGreaterThan(0)
    await suite.llm.waitUntil(() => suite.llm.requests[0]?.aborted === true)
    const conversation = await running.client.invoke('conversations.get', { id: conversationId })
    expect(conversation.messages.find((m) => m.id === assistantMessageId)?.status).toBe('cancelled')
    expect(await running.client.invoke('chat.cancel', { runId })).toEqual({ cancelled: false })
    await running.stop()
  })

  it('renames and deletes conversations; bad input and unknown ids are typed errors', async () => {
    suite.llm.push({ text: 'Hello!' })
    const running = await start()
    const { runId, conversationId } = await running.client.invoke('chat.send', { text: 'hi' })
    await doneOf(running, runId)
    const renamed = await running.client.invoke('conversations.rename', {
      id: conversationId,
      title: 'Greetings',
    })
    expect(renamed).toMatchObject({ id: conversationId, title: 'Greetings', messageCount: 2 })
    expect(await running.client.invoke('conversations.list', { query: 'greet' })).toHaveLength(1)
    expect(await running.client.invoke('conversations.list', { query: 'nothing like it' })).toHaveLength(0)
    expect(await running.client.invoke('chat.answer', { runId, input: 'late' })).toEqual({ accepted: false })

    const empty = await running.client.invoke('chat.send', { text: '  ' }).catch((error: unknown) => error)
    expect(isAppError(empty) && empty.code).toBe('VALIDATION_FAILED')
    const badToolset = await running.client
      .invoke('chat.send', { text: 'x', toolsets: ['nope'] })
      .catch((error: unknown) => error)
    expect(isAppError(badToolset) && badToolset.message).toContain('Unknown toolset "nope"')

    expect(await running.client.invoke('conversations.delete', { id: conversationId })).toEqual({
      deleted: true,
    })
    const gone = await running.client
      .invoke('conversations.get', { id: conversationId })
      .catch((e: unknown) => e)
    expect(isAppError(gone) && gone.code).toBe('NOT_FOUND')
    expect(await running.client.invoke('conversations.delete', { id: conversationId })).toEqual({
      deleted: false,
    })
    await running.stop()
  })
})

describe('a conversation’s model and sampling', () => {
  it('each answer names its provider and model; temperature and max output tokens are stored, sent and checked', async () => {
    suite.llm.push({ text: 'First.' }, { text: 'Second.' })
    const running = await start()
    const first = await running.client.invoke('chat.send', { text: 'hi' })
    const done = (await doneOf(running, first.runId)) as { message: { answeredBy?: unknown } }
    expect(done.message.answeredBy).toEqual({ provider: expect.any(String), model: expect.any(String) })
    const before = suite.llm.requests.at(-1)?.body as Record<string, unknown>
    expect(before.temperature).toBeUndefined()

    const bad = await running.client
      .invoke('conversations.update', {
        id: first.conversationId,
        generation: { temperature: 3, maxOutputTokens: 2.5 },
      })
      .catch((error: unknown) => error)
    expect(isAppError(bad) && bad.code).toBe('VALIDATION_FAILED')
    expect((bad as { issues?: Array<{ path: unknown[]; message: string }> }).issues).toEqual([
      expect.objectContaining({ path: ['generation', 'temperature'], message: 'At most 2.' }),
      expect.objectContaining({
        path: ['generation', 'maxOutputTokens'],
        message: 'A whole number of tokens.',
      }),
    ])

    const updated = await running.client.invoke('conversations.update', {
      id: first.conversationId,
      generation: { temperature: 0.2, maxOutputTokens: 300 },
    })
    expect(updated.generation).toEqual({ temperature: 0.2, maxOutputTokens: 300 })
    const second = await running.client.invoke('chat.send', {
      conversationId: first.conversationId,
      text: 'again',
    })
    await doneOf(running, second.runId)
    const after = suite.llm.requests.at(-1)?.body as Record<string, unknown>
    expect(after.temperature).toBe(0.2)
    expect(after.max_tokens ?? after.max_completion_tokens).toBe(300)
    const stored = await running.client.invoke('conversations.get', { id: first.conversationId })
    expect(stored.generation).toEqual({ temperature: 0.2, maxOutputTokens: 300 })
    expect(stored.messages.filter((m) => m.role === 'assistant').map((m) => m.answeredBy?.model)).toEqual([
      expect.any(String),
      expect.any(String),
    ])
    const reset = await running.client.invoke('conversations.update', {
      id: first.conversationId,
      generation: null,
    })
    expect(reset.generation).toBeUndefined()
    await running.stop()
  })
})

describe('workspace routes over the HTTP host', () => {
  it('lists folders, downloads a returned file, refuses paths outside, and cannot open files in the web host', async () => {
    const running = await start()
    await writeFile(join(suite.workspaceDir, 'report.xlsx'), Buffer.from([0x50, 0x4b, 3, 4]))
    await mkdir(join(suite.workspaceDir, 'notes'))
    await writeFile(join(suite.workspaceDir, 'notes', 'a.txt'), 'hello')
    const root = await running.client.invoke('workspace.list', { path: '/' })
    expect(root.map((e) => [e.path, e.type])).toEqual([
      ['/notes', 'directory'],
      ['/report.xlsx', 'file'],
    ])
    expect(root[1]).toMatchObject({ name: 'report.xlsx', size: 4, modifiedAt: expect.any(String) })
    const file = await running.client.invoke('workspace.readFile', { path: '/report.xlsx' })
    expect(file.name).toBe('report.xlsx')
    expect(file.mimeType).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    expect([...file.bytes]).toEqual([0x50, 0x4b, 3, 4])
    const outside = await running.client
      .invoke('workspace.readFile', { path: '/../outside.txt' })
      .catch((error: unknown) => error)
    expect(isAppError(outside)).toBe(true)
    expect(isAppError(outside) && outside.message).not.toContain(suite.workspaceDir)
    const folder = await running.client
      .invoke('workspace.readFile', { path: '/notes' })
      .catch((e: unknown) => e)
    expect(isAppError(folder) && folder.message).toContain('is a folder')
    const opened = await running.client.invoke('workspace.open', { path: '/report.xlsx' })
    expect(opened.opened).toBe(false)
    expect(opened.reason).toMatch(/desktop app/)
    await running.stop()
  })
})

describe('app.chat.streamDetached (voice panel, bridge)', () => {
  it('streams a plain answer with the active provider and the attachments converted', async () => {
    const running = await start()
    suite.llm.push({ text: 'It is about apples.', chunks: ['It is', ' about', ' apples.'] })
    const chunks: string[] = []
    const attachment = { name: 'fruit.txt', bytes: new TextEncoder().encode('Apples are red.') }
    for await (const chunk of running.app.chat.streamDetached({
      prompt: 'What is this about?',
      attachments: [attachment],
    }))
      chunks.push(chunk)
    expect(chunks).toEqual(['It is', ' about', ' apples.'])
    const user =
      sent(suite.llm.requests[0])
        .filter((m) => m.role === 'user')
        .at(-1)?.content ?? ''
    expect(user).toContain('What is this about?')
    expect(user).toContain('Apples are red.')
    expect((suite.llm.requests[0]?.body as { tools?: unknown } | undefined)?.tools).toBeUndefined()
    await running.stop()
  })

  it('offers the toolsets as sub-agents by the setting agent.subagents (all by default, a list, or none)', async () => {
    const running = await start()
    try {
      const delegations = async () => {
        suite.llm.push({ text: 'Hello.' })
        const { runId } = await running.client.invoke('chat.send', { text: 'hi' })
        await doneOf(running, runId)
        const request = suite.llm.requests.at(-1)
        return {
          lines: systemPrompt(request)
            .split('\n')
            .filter((line) => line.startsWith('- Delegation to the sub-agent of: ')),
          tools: sentTools(request),
        }
      }
      const all = await delegations()
      const names = running.app.tools.registry.list().map((t) => t.name)
      expect(all.lines).toHaveLength(names.length)
      expect(all.tools).toContain('launch_subagent')
      await running.client.invoke('settings.update', { agent: { subagents: ['spreadsheet'] } })
      const one = await delegations()
      expect(one.lines).toHaveLength(1)
      expect(one.lines[0]).toContain('toolset "spreadsheet"')
      await running.client.invoke('settings.update', { agent: { subagents: 'none' } })
      const none = await delegations()
      expect(none.lines).toEqual([])
      expect(none.tools).not.toContain('launch_subagent')
    } finally {
      await running.stop()
    }
  })

  it('settings.update refuses an agent.subagents value that is not all, none or toolset names', async () => {
    const running = await start()
    try {
      const refused = await running.client
        .invoke('settings.update', { agent: { subagents: 'some' as 'all' } })
        .catch((error: unknown) => error)
      expect(isAppError(refused) && refused.code).toBe('VALIDATION_FAILED')
    } finally {
      await running.stop()
    }
  })
})
