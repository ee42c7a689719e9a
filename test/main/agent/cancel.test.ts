import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { runAgent } from '../../../src/main/agent'
import { streamChat } from '../../../src/main/agent/chatStream'
import { type ScriptedLlm, startScriptedLlm } from '../../support/scriptedLlm'
import { scriptedModel, slowToolset } from './support'

let llm: ScriptedLlm
beforeAll(async () => {
  llm = await startScriptedLlm()
})
afterAll(() => llm.close())
beforeEach(() => llm.reset())

describe('cancellation', () => {
  it('mid-stream: the model request is aborted and the run ends cancelled with what was said', async () => {
    llm.push({ text: 'one two three four five', stallAfterChunks: 2 })
    const controller = new AbortController()
    const chunks: string[] = []
    const result = await runAgent({
      prompt: 'talk',
      model: scriptedModel(llm),
      toolsets: [],
      interactionMode: 'api',
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type !== 'text') return
        chunks.push(event.text)
        if (chunks.length === 2) controller.abort()
      },
    })
    expect(result.status).toBe('cancelled')
    expect(result.text).toBe('one two')
    await llm.waitUntil(() => llm.requests[0]?.aborted === true)
    expect(llm.requests[0]?.aborted).toBe(true)
  })

  it('mid-tool: the running method sees its signal and the step is marked cancelled', async () => {
    const { toolset, seen } = slowToolset()
    llm.push({ toolCalls: [{ name: 'slow_wait', arguments: {} }] }, { text: 'never asked' })
    const controller = new AbortController()
    const result = await runAgent({
      prompt: 'wait',
      model: scriptedModel(llm),
      toolsets: [toolset],
      interactionMode: 'api',
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'step' && event.phase === 'started') setTimeout(() => controller.abort(), 20)
      },
    })
    expect(seen.started).toBe(true)
    expect(seen.aborted).toBe(true)
    expect(result.status).toBe('cancelled')
    expect(result.steps.map((s) => [s.method, s.status])).toEqual([['slow.wait', 'cancelled']])
    expect(llm.requests).toHaveLength(1)
  })
})

describe('chatStream', () => {
  it('yields the text chunks as they arrive, without tools', async () => {
    llm.push({ text: 'Hello there, friend.', chunks: ['Hello', ' there,', ' friend.'] })
    const chunks: string[] = []
    for await (const chunk of streamChat({ model: scriptedModel(llm), prompt: 'hi' })) chunks.push(chunk)
    expect(chunks).toEqual(['Hello', ' there,', ' friend.'])
    const body = llm.requests[0]?.body as { tools?: unknown; stream?: boolean }
    expect(body.tools).toBeUndefined()
    expect(body.stream).toBe(true)
  })

  it('stops the request when the signal fires and ends quietly', async () => {
    llm.push({ text: 'a b c d e f', stallAfterChunks: 1 })
    const controller = new AbortController()
    const chunks: string[] = []
    for await (const chunk of streamChat({
      model: scriptedModel(llm),
      prompt: 'hi',
      signal: controller.signal,
    })) {
      chunks.push(chunk)
      controller.abort()
    }
    expect(chunks).toEqual(['a'])
    await llm.waitUntil(() => llm.requests[0]?.aborted === true)
  })
})
