import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { activePath } from '../../../src/shared/chat/conversationTree'
import { isAppError } from '../../../src/shared/errors'
import type { ChatMessage, Conversation, EventName } from '../../../src/shared/ipc'
import { type IpcHost, startIpcHost } from '../../support/ipcHost'
import { hostSuite, sent, systemPrompt } from './support'

// Regenerate, edit, retry, continue, delete, versions, instructions, the model per conversation.

const suite = hostSuite('bureau-message-actions-', 'sk-actions-test')
const EVENTS: EventName[] = ['chat.delta', 'agent.done']

const start = () =>
  startIpcHost({ dataDir: suite.dataDir, workspaceDir: suite.workspaceDir, token: 'actions', events: EVENTS })

async function finished(host: IpcHost, runId: string): Promise<ChatMessage> {
  const done = await host.waitForEvent((e) => e.event === 'agent.done' && e.payload.runId === runId)
  return (done.payload as { message: ChatMessage }).message
}

const shown = (c: Conversation) => activePath({ messages: c.messages, leafId: c.leafId ?? null })
const texts = (c: Conversation) => shown(c).map((m) => m.text)
const userTexts = () =>
  suite.llm.requests.map((r) =>
    sent(r)
      .filter((m) => m.role === 'user')
      .map((m) => String(m.content)),
  )

describe('message actions', () => {
  it('regenerate keeps the first answer as a version; the retry sends the same text and attachment again', async () => {
    suite.llm.push({ text: 'First answer.' }, { text: 'Second answer.' })
    const host = await start()
    const sendResult = await host.client.invoke('chat.send', {
      text: 'Summarize',
      attachments: [{ name: 'notes.txt', bytes: new TextEncoder().encode('Budget approved on Monday.') }],
    })
    await finished(host, sendResult.runId)
    const again = await host.client.invoke('chat.regenerate', {
      conversationId: sendResult.conversationId,
      messageId: sendResult.assistantMessageId,
    })
    expect(again.userMessageId).toBe(sendResult.userMessageId)
    expect(again.assistantMessageId).not.toBe(sendResult.assistantMessageId)
    expect((await finished(host, again.runId)).text).toBe('Second answer.')

    const c = await host.client.invoke('conversations.get', { id: sendResult.conversationId })
    expect(c.messages).toHaveLength(3)
    expect(texts(c)).toEqual(['Summarize', 'Second answer.'])
    // The second request had the same question with the file's text, and no first answer in its history.
    const second = sent(suite.llm.requests[1])
    expect(second.filter((m) => m.role === 'assistant')).toHaveLength(0)
    expect(String(second.find((m) => m.role === 'user')?.content)).toContain('Budget approved on Monday.')

    const first = await host.client.invoke('conversations.select', {
      conversationId: c.id,
      messageId: sendResult.assistantMessageId,
    })
    expect(texts(first)).toEqual(['Summarize', 'First answer.'])
    expect(first.updatedAt).toBe(c.updatedAt)
    await host.stop()
  })

  it('an edit answers as a new branch; the old turns stay; delete removes a pair and keeps the rest', async () => {
    suite.llm.push({ text: 'A1' }, { text: 'A2' }, { text: 'A2 edited' })
    const host = await start()
    const one = await host.client.invoke('chat.send', { text: 'Q1' })
    await finished(host, one.runId)
    const two = await host.client.invoke('chat.send', { conversationId: one.conversationId, text: 'Q2' })
    await finished(host, two.runId)
    const edited = await host.client.invoke('chat.edit', {
      conversationId: one.conversationId,
      messageId: two.userMessageId,
      text: 'Q2, but shorter',
    })
    await finished(host, edited.runId)
    let c = await host.client.invoke('conversations.get', { id: one.conversationId })
    expect(texts(c)).toEqual(['Q1', 'A1', 'Q2, but shorter', 'A2 edited'])
    expect(c.messages).toHaveLength(6)
    expect(userTexts()[2]).toEqual(['Q1', 'Q2, but shorter'])
    c = await host.client.invoke('conversations.select', {
      conversationId: c.id,
      messageId: two.userMessageId,
    })
    expect(texts(c)).toEqual(['Q1', 'A1', 'Q2', 'A2'])

    c = await host.client.invoke('conversations.deleteMessage', {
      conversationId: c.id,
      messageId: one.assistantMessageId,
    })
    expect(texts(c)).toEqual(['Q2', 'A2'])
    expect(c.messages.map((m) => m.text)).toEqual(['Q2', 'A2', 'Q2, but shorter', 'A2 edited'])
    await host.stop()
  })

  it('continue streams more of a stopped answer into the same message', async () => {
    suite.llm.push({ text: 'one two three four five six', stallAfterChunks: 2 }, { text: ' three four.' })
    const host = await start()
    const sendResult = await host.client.invoke('chat.send', { text: 'Count' })
    await host.waitForEvent((e) => e.event === 'chat.delta')
    await host.client.invoke('chat.cancel', { runId: sendResult.runId })
    const stopped = await finished(host, sendResult.runId)
    expect(stopped.status).toBe('cancelled')
    const more = await host.client.invoke('chat.continue', {
      conversationId: sendResult.conversationId,
      messageId: sendResult.assistantMessageId,
    })
    expect(more.assistantMessageId).toBe(sendResult.assistantMessageId)
    const done = await finished(host, more.runId)
    expect(done.status).toBe('done')
    expect(done.text).toBe(`${stopped.text} three four.`)
    const request = sent(suite.llm.requests[1])
    expect(request.find((m) => m.role === 'assistant')?.content).toBe(stopped.text)
    expect(String(request.at(-1)?.content)).toContain('Continue it exactly where it stopped')
    await host.stop()
  })

  it('custom instructions end the system prompt; the conversation keeps its own model and instructions', async () => {
    suite.llm.push({ text: 'Bonjour.' })
    const host = await start()
    await host.client.invoke('settings.update', { agent: { instructions: 'Always answer in French.' } })
    const sendResult = await host.client.invoke('chat.send', {
      text: 'Hello',
      model: { providerId: 'openai', model: 'scripted-model-2' },
    })
    await finished(host, sendResult.runId)
    expect(systemPrompt(suite.llm.requests[0])).toMatch(
      /## Custom instructions[\s\S]*Always answer in French\.$/,
    )
    expect((suite.llm.requests[0]?.body as { model?: string } | undefined)?.model).toBe('scripted-model-2')

    const c = await host.client.invoke('conversations.update', {
      id: sendResult.conversationId,
      instructions: 'Use bullet points.',
      pinned: true,
    })
    expect(c).toMatchObject({
      pinned: true,
      instructions: 'Use bullet points.',
      model: { model: 'scripted-model-2' },
    })
    suite.llm.push({ text: 'Oui.' })
    const next = await host.client.invoke('chat.send', { conversationId: c.id, text: 'Again' })
    await finished(host, next.runId)
    expect(systemPrompt(suite.llm.requests[1])).toMatch(
      /French\.[\s\S]*this conversation:\nUse bullet points\.$/,
    )
    const { tokens } = await host.client.invoke('chat.instructionTokens', {
      global: 'Always answer in French.',
    })
    expect(tokens).toBeGreaterThan(10)
    expect(tokens).toBeLessThan(60)
    await host.stop()
  })

  it('regenerating while a reply runs, or an unknown message, is a typed error', async () => {
    suite.llm.push({ text: 'slow', stallAfterChunks: 0 })
    const host = await start()
    const sendResult = await host.client.invoke('chat.send', { text: 'Q' })
    const busy = await host.client
      .invoke('chat.regenerate', {
        conversationId: sendResult.conversationId,
        messageId: sendResult.assistantMessageId,
      })
      .catch((e: unknown) => e)
    expect(isAppError(busy) && busy.code).toBe('CONFLICT')
    await host.client.invoke('chat.cancel', { runId: sendResult.runId })
    await finished(host, sendResult.runId)
    const unknown = await host.client
      .invoke('chat.regenerate', { conversationId: sendResult.conversationId, messageId: 'nope' })
      .catch((e: unknown) => e)
    expect(isAppError(unknown) && unknown.code).toBe('NOT_FOUND')
    await host.stop()
  })

  it('a conversation file from before the tree opens as one line and answers on after its last message', async () => {
    const host = await start()
    const old = {
      id: 'old-one',
      title: 'Old',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      messages: ['Q', 'A'].map((text, i) => ({
        id: `m${i}`,
        role: i === 0 ? 'user' : 'assistant',
        text,
        createdAt: '2026-01-01T00:00:00.000Z',
        status: 'done',
      })),
    }
    await mkdir(join(suite.dataDir, 'conversations'), { recursive: true })
    await writeFile(join(suite.dataDir, 'conversations', 'old-one.json'), JSON.stringify(old))
    const c = await host.client.invoke('conversations.get', { id: 'old-one' })
    expect(texts(c)).toEqual(['Q', 'A'])
    expect(c.pinned).toBe(false)
    suite.llm.push({ text: 'B' })
    const next = await host.client.invoke('chat.send', { conversationId: 'old-one', text: 'P' })
    await finished(host, next.runId)
    expect(texts(await host.client.invoke('conversations.get', { id: 'old-one' }))).toEqual([
      'Q',
      'A',
      'P',
      'B',
    ])
    await host.stop()
  })
})
