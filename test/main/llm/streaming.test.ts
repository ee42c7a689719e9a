import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { StreamEvent } from '../../../src/main/llm/types'
import { type ScriptedLlm, startScriptedLlm } from '../../support/scriptedLlm'
import { collect, KINDS, scriptedClient } from './support'

let llm: ScriptedLlm
beforeAll(async () => {
  llm = await startScriptedLlm()
})
afterAll(() => llm.close())
beforeEach(() => llm.reset())

const user = (content: string) => ({ messages: [{ role: 'user' as const, content }] })

function texts(events: StreamEvent[]): string[] {
  return events.flatMap((e) => (e.type === 'text' ? [e.text] : []))
}

describe.each(KINDS)('%s client streaming', (kind) => {
  it('yields text deltas in order that reassemble exactly, then done with the same text', async () => {
    const chunks = ['Grüße', ' aus ', 'Köln', ' 👋🏽', '\n\n', '| a | b |\n', '  spaced  ', 'end.']
    llm.push({ text: chunks.join(''), chunks })
    const events = await collect(scriptedClient(llm, kind).stream(user('hi')))
    expect(texts(events)).toEqual(chunks)
    const done = events.at(-1)
    expect(done?.type).toBe('done')
    if (done?.type !== 'done') return
    expect(done.result.message.content).toBe(chunks.join(''))
    expect(done.result.finishReason).toBe('stop')
    expect(done.result.message.toolCalls).toEqual([])
  })

  it('reassembles tool-call argument deltas exactly, several calls in order, broken JSON untouched', async () => {
    const first = '{"path": "/reports/Q3 – Umsatz.xlsx", "sheet": "Sales", "cells": ["A1", "B2"]}'
    const broken = "{'text': 'Hello, world', trailing: [1, 2,],"
    llm.push({
      text: 'Let me look.',
      toolCalls: [
        {
          id: 'call_a',
          name: 'spreadsheet_read_range',
          arguments: first,
          argumentChunks: [
            '{"pa',
            'th": "/reports/Q3 – Umsa',
            'tz.xlsx", "sheet": "Sales", "cells": ["A1", "B2"]}',
          ],
        },
        { id: 'call_b', name: 'text_count_words', arguments: broken },
      ],
    })
    const events = await collect(scriptedClient(llm, kind).stream(user('read it')))
    const done = events.at(-1)
    if (done?.type !== 'done') throw new Error('no done event')
    const calls = done.result.message.toolCalls
    expect(calls.map((c) => c.name)).toEqual(['spreadsheet_read_range', 'text_count_words'])
    expect(calls[1]?.arguments).toBe(broken)
    expect(JSON.parse(calls[0]?.arguments ?? '')).toEqual(JSON.parse(first))
    if (kind !== 'ollama') {
      // Ollama sends calls whole and re-serialises parsed arguments; the others stream the exact text.
      expect(calls[0]?.arguments).toBe(first)
      expect(calls.map((c) => c.id)).toEqual(['call_a', 'call_b'])
    }
    expect(done.result.finishReason).toBe('tool_calls')
    expect(done.result.message.content).toBe('Let me look.')
    // Deltas: each call announced once before its argument pieces, which join to the final arguments.
    const starts = events.filter((e) => e.type === 'tool-call')
    expect(starts).toHaveLength(2)
    for (const [index, call] of calls.entries()) {
      const joined = events
        .flatMap((e) => (e.type === 'tool-call-delta' && e.index === index ? [e.arguments] : []))
        .join('')
      expect(joined).toBe(call.arguments)
    }
  })

  it('chat() returns the final message with usage', async () => {
    llm.push({ text: 'Four.', usage: { promptTokens: 120, completionTokens: 2 } })
    const result = await scriptedClient(llm, kind).chat(user('2+2?'))
    expect(result.message.content).toBe('Four.')
    expect(result.usage).toMatchObject({ inputTokens: 120, outputTokens: 2 })
  })

  it('breaking out of the stream stops the HTTP request (the server records the abort)', async () => {
    llm.push({ text: 'one two three four five six seven eight nine ten', chunkDelayMs: 30 })
    for await (const event of scriptedClient(llm, kind).stream(user('count'))) {
      if (event.type === 'text') break
    }
    await llm.waitUntil(() => llm.requests.at(-1)?.aborted === true)
    expect(llm.requests.at(-1)?.finished).toBe(false)
  })
})

describe('cache statistics are normalised into one usage shape', () => {
  it('OpenAI prompt_tokens_details.cached_tokens', async () => {
    llm.push({ text: 'ok', usage: { promptTokens: 1000, completionTokens: 1, cachedTokens: 768 } })
    const { usage } = await scriptedClient(llm, 'openai-compatible').chat(user('x'))
    expect(usage).toEqual({ inputTokens: 1000, outputTokens: 1, cachedInputTokens: 768, cacheWriteTokens: 0 })
  })

  it('DeepSeek prompt_cache_hit_tokens', async () => {
    llm.push({
      text: 'ok',
      usage: { promptTokens: 900, completionTokens: 1, cachedTokens: 640, style: 'deepseek' },
    })
    const { usage } = await scriptedClient(llm, 'openai-compatible').chat(user('x'))
    expect(usage).toEqual({ inputTokens: 900, outputTokens: 1, cachedInputTokens: 640, cacheWriteTokens: 0 })
  })

  it('Anthropic cache_read_input_tokens and cache_creation_input_tokens (input total includes both)', async () => {
    llm.push({
      text: 'ok',
      usage: { promptTokens: 2000, completionTokens: 3, cachedTokens: 1500, cacheCreationTokens: 300 },
    })
    const { usage } = await scriptedClient(llm, 'anthropic').chat(user('x'))
    expect(usage).toEqual({
      inputTokens: 2000,
      outputTokens: 3,
      cachedInputTokens: 1500,
      cacheWriteTokens: 300,
    })
  })
})
