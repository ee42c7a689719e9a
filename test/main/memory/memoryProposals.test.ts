import { describe, expect, it } from 'vitest'
import type { AgentStep, ChatMessage, EventName } from '../../../src/shared/ipc'
import { MEMORY_RECALL_STEP } from '../../../src/shared/memory'
import { startIpcHost } from '../../support/ipcHost'
import type { RecordedRequest } from '../../support/scriptedLlm'
import { hostSuite } from '../agent/support'

// The model proposes memories through the real agent loop (the scripted OpenAI-compatible server as
// the provider, the app host behind HTTP): the card, Keep / Edit / Don't, and the next conversation's
// system prompt carrying what was kept.

const suite = hostSuite('bureau-memory-proposals-', 'sk-memory-test')
const EVENTS: EventName[] = ['agent.approval', 'agent.done', 'agent.step']

const start = () =>
  startIpcHost({
    dataDir: suite.dataDir,
    workspaceDir: suite.workspaceDir,
    token: 'memory',
    events: EVENTS,
  })

const propose = (text: string, extra: Record<string, unknown> = {}) => [
  { toolCalls: [{ name: 'open_toolset', arguments: { toolset: 'memory' } }] },
  { toolCalls: [{ name: 'memory_remember', arguments: { text, ...extra } }] },
  { toolCalls: [{ name: 'done', arguments: { message: 'Noted.' } }] },
]

function systemOf(request: RecordedRequest | undefined): string {
  const body = (request?.body ?? {}) as { messages?: Array<{ role: string; content: unknown }> }
  const messages = body.messages ?? []
  const system = messages.find((m) => m.role === 'system')
  return typeof system?.content === 'string' ? system.content : JSON.stringify(system?.content)
}

const stepOf = (message: ChatMessage, method: string): AgentStep | undefined =>
  message.steps.find((s) => s.method === method)

describe('memory proposals', () => {
  it('kept: stored and in the next conversation’s prompt; declined: nothing stored; edited: the edit is stored', async () => {
    const host = await start()
    try {
      suite.llm.push(...propose('Invoices are saved in /finance/invoices'))
      const first = await host.client.invoke('chat.send', {
        text: 'Remember: invoices go to /finance/invoices',
      })
      const card = await host.waitForEvent((e) => e.event === 'agent.approval')
      const call = card.payload.call as { approvalId: string; memory?: { text: string; scope: string } }
      expect(call.memory).toEqual({ text: 'Invoices are saved in /finance/invoices', scope: 'everywhere' })
      await host.client.invoke('chat.approve', {
        runId: first.runId,
        approvalId: call.approvalId,
        decision: 'once',
      })
      const done = await host.waitForEvent((e) => e.event === 'agent.done' && e.payload.runId === first.runId)
      expect(stepOf(done.payload.message as ChatMessage, 'memory.remember')).toMatchObject({
        status: 'ok',
        approval: { outcome: 'allowed', by: 'user' },
        result: { stored: { text: 'Invoices are saved in /finance/invoices', scope: 'everywhere' } },
      })
      const listed = await host.client.invoke('memory.list', {})
      expect(listed.memories.map((m) => m.text)).toEqual(['Invoices are saved in /finance/invoices'])
      // The source names the conversation it was said in (Settings → Memory shows its title).
      expect(listed.memories[0]?.source).toMatchObject({
        kind: 'conversation',
        conversationId: first.conversationId,
      })

      // The next conversation: the memory block is in the system prompt of every call of the run, byte for byte.
      const before = suite.llm.requests.length
      suite.llm.push(
        { toolCalls: [{ name: 'open_toolset', arguments: { toolset: 'files' } }] },
        { toolCalls: [{ name: 'done', arguments: { message: 'In /finance/invoices.' } }] },
      )
      const second = await host.client.invoke('chat.send', {
        text: 'Where do I save the invoice from Schmidt AG?',
      })
      const answered = await host.waitForEvent(
        (e) => e.event === 'agent.done' && e.payload.runId === second.runId,
      )
      const calls = suite.llm.requests.slice(before)
      expect(calls).toHaveLength(2)
      expect(systemOf(calls[0])).toContain('Invoices are saved in /finance/invoices')
      expect(systemOf(calls[1])).toBe(systemOf(calls[0]))
      const recall = stepOf(answered.payload.message as ChatMessage, MEMORY_RECALL_STEP)
      expect(recall).toMatchObject({
        status: 'ok',
        result: {
          memories: [{ id: listed.memories[0]?.id, text: 'Invoices are saved in /finance/invoices' }],
        },
      })

      // Declined: nothing is stored and the model is told.
      suite.llm.push(...propose('Anna is on holiday in August'))
      const third = await host.client.invoke('chat.send', { text: 'Anna is away in August' })
      const declineCard = await host.waitForEvent(
        (e) => e.event === 'agent.approval' && (e.payload.runId as string) === third.runId,
      )
      await host.client.invoke('chat.approve', {
        runId: third.runId,
        approvalId: (declineCard.payload.call as { approvalId: string }).approvalId,
        decision: 'deny',
      })
      const declined = await host.waitForEvent(
        (e) => e.event === 'agent.done' && e.payload.runId === third.runId,
      )
      expect(stepOf(declined.payload.message as ChatMessage, 'memory.remember')).toMatchObject({
        status: 'error',
        error: expect.stringMatching(/chose not to keep this memory/),
      })
      expect((await host.client.invoke('memory.list', {})).memories).toHaveLength(1)

      // Edited on the card: the user's text is stored.
      suite.llm.push(...propose('Jonas does payroll'))
      const fourth = await host.client.invoke('chat.send', { text: 'Jonas handles payroll questions' })
      const editCard = await host.waitForEvent(
        (e) => e.event === 'agent.approval' && (e.payload.runId as string) === fourth.runId,
      )
      await host.client.invoke('chat.approve', {
        runId: fourth.runId,
        approvalId: (editCard.payload.call as { approvalId: string }).approvalId,
        decision: 'once',
        text: 'Jonas Weber handles payroll questions',
      })
      await host.waitForEvent((e) => e.event === 'agent.done' && e.payload.runId === fourth.runId)
      expect((await host.client.invoke('memory.list', {})).memories.map((m) => m.text).sort()).toEqual([
        'Invoices are saved in /finance/invoices',
        'Jonas Weber handles payroll questions',
      ])
    } finally {
      await host.stop()
    }
  })

  it('a close memory is shown to the model instead of a card; an API key is refused with a clear message', async () => {
    const host = await start()
    try {
      await host.client.invoke('memory.add', {
        text: 'Invoices are saved in /finance/invoices',
        scope: 'everywhere',
      })
      await expect(
        host.client.invoke('memory.add', {
          text: 'my key is sk-proj-Z8xQ4mT2vL9pR3nK7wB1',
          scope: 'everywhere',
        }),
      ).rejects.toThrow(/looks like an API key/)
      suite.llm.push(...propose('Invoices are now saved in /archive/invoices'))
      const run = await host.client.invoke('chat.send', { text: 'Invoices now go to /archive/invoices' })
      const done = await host.waitForEvent((e) => e.event === 'agent.done' && e.payload.runId === run.runId)
      expect(host.events.filter((e) => e.event === 'agent.approval')).toHaveLength(0)
      expect(stepOf(done.payload.message as ChatMessage, 'memory.remember')).toMatchObject({
        status: 'error',
        error: expect.stringMatching(
          /close memories exist: \[m[0-9a-f]{8}\] Invoices are saved in \/finance\/invoices/,
        ),
      })
      expect((await host.client.invoke('memory.list', {})).memories).toHaveLength(1)

      // "Save without asking": no card, stored at once.
      await host.client.invoke('memory.preferences', { saveWithoutAsking: true })
      suite.llm.push(...propose('The printer is on floor 3'))
      const quiet = await host.client.invoke('chat.send', { text: 'The printer moved to floor 3' })
      await host.waitForEvent((e) => e.event === 'agent.done' && e.payload.runId === quiet.runId)
      expect(host.events.filter((e) => e.event === 'agent.approval')).toHaveLength(0)
      expect((await host.client.invoke('memory.list', { query: 'printer' })).memories[0]?.text).toBe(
        'The printer is on floor 3',
      )
    } finally {
      await host.stop()
    }
  })

  it('detached runs (the bridge) get memories only when allowed: no block and no memory toolset by default', async () => {
    const host = await start()
    try {
      await host.client.invoke('memory.add', {
        text: 'Invoices are saved in /finance/invoices',
        scope: 'everywhere',
      })
      const before = suite.llm.requests.length
      suite.llm.push({ text: 'Somewhere.' }, { text: 'In /finance/invoices.' })
      await host.app.chat.runDetached({ prompt: 'Where do invoices go?' })
      await host.app.chat.runDetached({ prompt: 'Where do invoices go?', useMemory: true })
      const [denied, allowed] = suite.llm.requests.slice(before)
      expect(systemOf(denied)).not.toContain('/finance/invoices')
      expect(systemOf(denied)).not.toMatch(/- memory:/)
      expect(systemOf(allowed)).toContain('Invoices are saved in /finance/invoices')
      expect(systemOf(allowed)).toMatch(/- memory:/)
    } finally {
      await host.stop()
    }
  })
})
