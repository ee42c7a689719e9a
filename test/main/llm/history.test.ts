import { describe, expect, it } from 'vitest'
import { Conversation } from '../../../src/main/llm/history/conversation'
import { estimateMessagesTokens, estimateTextTokens } from '../../../src/main/llm/history/estimateTokens'
import { trimHistory } from '../../../src/main/llm/history/trimHistory'
import type { ChatMessage } from '../../../src/main/llm/types'

const big = (label: string) => `${label} ${'x'.repeat(400)}`

function agentHistory(): ChatMessage[] {
  return [
    { role: 'user', content: big('u1') },
    {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'a', name: 'files_list', arguments: '{"path":"/"}' }],
    },
    { role: 'tool', toolCallId: 'a', name: 'files_list', content: big('r1') },
    { role: 'assistant', content: big('answer1') },
    { role: 'user', content: big('u2') },
    {
      role: 'assistant',
      content: '',
      toolCalls: [
        { id: 'b', name: 'files_read', arguments: '{}' },
        { id: 'c', name: 'files_read', arguments: '{}' },
      ],
    },
    { role: 'tool', toolCallId: 'b', name: 'files_read', content: big('r2b') },
    { role: 'tool', toolCallId: 'c', name: 'files_read', content: big('r2c') },
    { role: 'assistant', content: '', toolCalls: [{ id: 'd', name: 'files_read', arguments: '{}' }] },
    { role: 'tool', toolCallId: 'd', name: 'files_read', content: big('r2d') },
  ]
}

function assertPairsIntact(messages: readonly ChatMessage[]) {
  const calls = new Set(
    messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.id) : [])),
  )
  const results = new Set(messages.flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : [])))
  expect([...results].sort()).toEqual([...calls].sort())
  expect(messages[0]?.role).not.toBe('tool')
}

describe('token estimate', () => {
  it('counts ~4 characters per token for Latin text and one per CJK character', () => {
    expect(estimateTextTokens('a'.repeat(400))).toBe(100)
    expect(estimateTextTokens('会议记录')).toBe(4)
  })
})

describe('trimHistory', () => {
  it('leaves a history that fits untouched', () => {
    const history = agentHistory()
    expect(trimHistory(history, 100_000)).toEqual({ messages: history, dropped: 0 })
  })

  it('drops whole earlier turns first, never the last user message, never splitting tool pairs', () => {
    const history = agentHistory()
    const total = estimateMessagesTokens(history)
    const result = trimHistory(history, total - 50)
    expect(result.messages[0]).toEqual(history[4]) // the whole first turn is gone
    expect(result.dropped).toBe(4)
    assertPairsIntact(result.messages)
  })

  it('under pressure drops old exchanges of the current turn but keeps the last user message and the newest exchange', () => {
    const history = agentHistory()
    const result = trimHistory(history, 10)
    expect(result.messages).toEqual([history[4], history[8], history[9]])
    assertPairsIntact(result.messages)
  })

  it('trims down to the lower target mark when one is given', () => {
    const history = agentHistory()
    const total = estimateMessagesTokens(history)
    const result = trimHistory(history, total - 10, Math.floor(total / 2))
    expect(estimateMessagesTokens(result.messages)).toBeLessThanOrEqual(Math.floor(total / 2) + 1)
    assertPairsIntact(result.messages)
  })
})

describe('Conversation', () => {
  it('never trims the system prompt and keeps user, assistant and tool results in order', () => {
    const conversation = new Conversation(big('system'))
    for (const message of agentHistory()) {
      if (message.role === 'user') conversation.addUser(message.content)
      else if (message.role === 'assistant') conversation.addAssistant(message.content, message.toolCalls)
      else if (message.role === 'tool')
        conversation.addToolResult(message.toolCallId, message.name, message.content)
    }
    const before = conversation.estimateTokens()
    const dropped = conversation.fit(before - 20)
    expect(dropped).toBeGreaterThan(0)
    expect(conversation.system).toBe(big('system'))
    expect(conversation.estimateTokens()).toBeLessThan(before)
    expect(conversation.messages.some((m) => m.role === 'user' && m.content.startsWith('u2'))).toBe(true)
    assertPairsIntact(conversation.messages as ChatMessage[])
  })
})

describe('LlmSession trims before each call', () => {
  it('drops the oldest turns to fit the window, keeps the system prompt and the last user message', async () => {
    const { LlmSession, createLlmClient } = await import('../../../src/main/llm')
    const client = createLlmClient({
      id: 'x',
      name: 'X',
      kind: 'openai-compatible',
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'm',
      apiKeyEnv: undefined,
      contextWindow: 1000,
      maxOutputTokens: 100,
      interactionMode: undefined,
      cacheType: 'prefix',
      supportsTools: true,
      supportsVision: false,
      headers: {},
      temperature: undefined,
      apiKey: undefined,
    })
    const session = new LlmSession({ client, system: 'SYSTEM PROMPT' })
    for (let i = 0; i < 10; i++) {
      session.addUser(big(`question${i}`))
      session.conversation.addAssistant(big(`answer${i}`))
    }
    session.addUser('last question')
    const request = await session.buildRequest()
    expect(request.trimmed).toBeGreaterThan(0)
    expect(request.messages[0]).toEqual({ role: 'system', content: 'SYSTEM PROMPT' })
    expect(request.messages.at(-1)).toEqual({ role: 'user', content: 'last question' })
    expect(request.messages[1]?.role).toBe('user')
    expect(estimateMessagesTokens(request.messages)).toBeLessThanOrEqual(1000 - 100)
  })
})
