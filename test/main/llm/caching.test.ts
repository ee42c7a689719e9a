import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { LlmSession, type ToolSpec } from '../../../src/main/llm'
import type { CacheType, ProviderKind } from '../../../src/main/llm/types'
import { type ScriptedLlm, startScriptedLlm } from '../../support/scriptedLlm'
import { scriptedClient } from './support'

let llm: ScriptedLlm
beforeAll(async () => {
  llm = await startScriptedLlm()
})
afterAll(() => llm.close())
beforeEach(() => llm.reset())

const tool = (name: string): ToolSpec => ({
  name,
  description: `The ${name} method.`,
  parameters: { type: 'object', properties: { path: { type: 'string' } } },
})
const TOOLS = [tool('files_list'), tool('files_read'), tool('spreadsheet_read_range')]

const chatBodies = () => llm.requests.filter((r) => r.endpoint !== 'ollama.show').map((r) => r.rawBody)

/** Runs a few agent-like turns: a user message, a tool round trip, an answer, a second user message. */
async function runTurns(kind: ProviderKind, cacheType: CacheType) {
  const session = new LlmSession({
    client: scriptedClient(llm, kind, { cacheType }),
    system: 'You are Bureau, an office assistant.\n\n## Tools\n(manual)',
    tools: TOOLS,
    contextWindow: 64_000,
  })
  session.addUser('Summarise /q3.xlsx')
  llm.push({ toolCalls: [{ id: 'c1', name: 'spreadsheet_read_range', arguments: { path: '/q3.xlsx' } }] })
  await session.send({ dynamicContext: 'Context: 1 attachment (q3.xlsx). Time: 09:00' })
  session.addToolResult('c1', 'spreadsheet_read_range', 'A1=Revenue B1=1200')
  llm.push({ text: 'Revenue was 1200.' })
  await session.send({ dynamicContext: 'Context: 1 attachment (q3.xlsx). Time: 09:01' })
  session.addUser('And in Q2?')
  llm.push({ text: 'I do not have Q2.' })
  await session.send({ dynamicContext: 'Context: no attachments. Time: 09:02' })
  return session
}

/** The serialized messages part of a raw body up to (excluding) the closing bracket of the array. */
function messagesPrefix(raw: string): string {
  const body = JSON.parse(raw) as { messages: unknown[] }
  const last = JSON.stringify(body.messages.at(-1))
  const end = raw.lastIndexOf(last) + last.length
  return raw.slice(0, end)
}

describe.each<ProviderKind>(['openai-compatible', 'ollama', 'anthropic'])(
  'prefix caching over %s',
  (kind) => {
    it('every request body starts byte-for-byte with the previous request up to its last message', async () => {
      await runTurns(kind, kind === 'anthropic' ? 'anthropic' : 'prefix')
      const bodies = chatBodies()
      expect(bodies).toHaveLength(3)
      for (let i = 1; i < bodies.length; i++) {
        const previous = messagesPrefix(bodies[i - 1] as string)
        expect((bodies[i] as string).startsWith(previous)).toBe(true)
      }
      // The dynamic context rides on the last user message, frozen there for later calls.
      expect(bodies[1]).toContain('Time: 09:00')
      expect(bodies[1]).not.toContain('Time: 09:01')
      expect(bodies[2]).toContain('And in Q2?\\n\\nContext: no attachments. Time: 09:02')
    })
  },
)

describe('cacheType none', () => {
  it('puts the dynamic context at the start of the prompt, fresh each call, never in the history', async () => {
    const session = await runTurns('openai-compatible', 'none')
    const bodies = chatBodies().map(
      (raw) => JSON.parse(raw) as { messages: Array<{ role: string; content: string }> },
    )
    expect(
      bodies[0]?.messages[0]?.content.startsWith(
        'Context: 1 attachment (q3.xlsx). Time: 09:00\n\nYou are Bureau',
      ),
    ).toBe(true)
    expect(bodies[1]?.messages[0]?.content.startsWith('Context: 1 attachment (q3.xlsx). Time: 09:01')).toBe(
      true,
    )
    expect(bodies[2]?.messages[0]?.content.startsWith('Context: no attachments. Time: 09:02')).toBe(true)
    const history = JSON.stringify(session.conversation.messages)
    expect(history).not.toContain('Time: 09:0')
    expect(JSON.stringify(bodies[2]?.messages.slice(1))).not.toContain('Time: 09:0')
  })
})

describe('Anthropic cache breakpoints', () => {
  it('one on the last system block and one on the last tool, never more than 4', async () => {
    await runTurns('anthropic', 'anthropic')
    for (const raw of chatBodies()) {
      expect(raw.split('"cache_control"').length - 1).toBeLessThanOrEqual(4)
      const body = JSON.parse(raw) as {
        system: Array<{ cache_control?: unknown }>
        tools: Array<{ name: string; cache_control?: unknown }>
      }
      expect(body.system.at(-1)?.cache_control).toEqual({ type: 'ephemeral' })
      expect(body.tools.at(-1)?.cache_control).toEqual({ type: 'ephemeral' })
      expect(body.tools.slice(0, -1).every((t) => t.cache_control === undefined)).toBe(true)
      expect(raw.split('"cache_control"').length - 1).toBe(2)
    }
  })

  it('prefix mode on Anthropic sends no breakpoints', async () => {
    await runTurns('anthropic', 'prefix')
    for (const raw of chatBodies()) expect(raw).not.toContain('cache_control')
  })
})
