import { describe, expect, it } from 'vitest'
import { toExportJson } from '../../../../src/shared/chat/conversationExport'
import type { AgentStep, ChatMessage, EventName } from '../../../../src/shared/ipc'
import { startIpcHost } from '../../../support/ipcHost'
import { hostSuite } from '../support'

// "Always allow this tool in this conversation" is saved with the conversation, so it holds
// after the app restarts; the run's steps log who approved each call. A rule `files: ask` makes the
// workspace's writes ask (no browser or site needed).

const suite = hostSuite('bureau-approval-grants-', 'sk-grants-test')
const EVENTS: EventName[] = ['agent.approval', 'agent.done']

const start = () =>
  startIpcHost({ dataDir: suite.dataDir, workspaceDir: suite.workspaceDir, token: 'grants', events: EVENTS })

const write = (path: string) => [
  { toolCalls: [{ name: 'open_toolset', arguments: { toolset: 'files' } }] },
  { toolCalls: [{ name: 'files_write_text', arguments: { path, content: 'minutes' } }] },
  { toolCalls: [{ name: 'done', arguments: { message: 'Saved.' } }] },
]

const writeStep = (message: ChatMessage): AgentStep | undefined =>
  (message.steps ?? []).find((s) => s.method === 'files.write_text')

describe('approval grants', () => {
  it('a conversation grant survives a restart; an imported copy of the conversation does not bring it', async () => {
    suite.llm.push(...write('/notes/one.txt'))
    let host = await start()
    await host.client.invoke('settings.update', { approvals: { rules: { files: 'ask' } } })
    const first = await host.client.invoke('chat.send', { text: 'Save the minutes' })
    const card = await host.waitForEvent((e) => e.event === 'agent.approval')
    const call = card.payload.call as { approvalId: string }
    expect(
      await host.client.invoke('chat.approve', {
        runId: first.runId,
        approvalId: call.approvalId,
        decision: 'conversation',
      }),
    ).toEqual({ accepted: true })
    const done = await host.waitForEvent((e) => e.event === 'agent.done')
    expect(writeStep(done.payload.message as ChatMessage)).toMatchObject({
      status: 'ok',
      approval: { outcome: 'allowed', by: 'user' },
    })
    const saved = await host.client.invoke('conversations.get', { id: first.conversationId })
    expect(saved.approvedTools).toEqual(['files.writeText'])
    await host.stop()

    // Restarted: the same conversation writes again without a card.
    suite.llm.push(...write('/notes/two.txt'))
    host = await start()
    const second = await host.client.invoke('chat.send', {
      conversationId: first.conversationId,
      text: 'And the second part',
    })
    const again = await host.waitForEvent((e) => e.event === 'agent.done' && e.payload.runId === second.runId)
    expect(host.events.filter((e) => e.event === 'agent.approval')).toHaveLength(0)
    expect(writeStep(again.payload.message as ChatMessage)).toMatchObject({
      status: 'ok',
      approval: { outcome: 'allowed', by: 'policy' },
    })

    // A conversation file from elsewhere cannot carry a grant in.
    const imported = await host.client.invoke('conversations.import', {
      text: toExportJson({ ...saved, approvedTools: ['files.writeText', 'web.click'] }),
    })
    const copy = await host.client.invoke('conversations.get', { id: imported.id })
    expect(copy.approvedTools).toBeUndefined()
    await host.stop()
  })
})
