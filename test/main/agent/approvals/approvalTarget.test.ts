import { describe, expect, it } from 'vitest'
import { maskArgs } from '../../../../src/main/agent/approvals'
import { createRunApprovals } from '../../../../src/main/agent/service/runApprovals'
import { loadEmailToolset } from '../../../../src/main/email'
import { mcpToolset } from '../../../../src/main/mcp/mcpToolset'
import { type ApprovalRequest, createToolSession, invoke } from '../../../../src/main/tools'
import type { ApprovalCall } from '../../../../src/shared/ipc'
import { ApprovalSettings, EmailSettings } from '../../../../src/shared/settings'

// The approval card shows what a call touches (MCP server, mail recipients), with secrets masked.
const deny = (asked: ApprovalRequest[]) => async (request: ApprovalRequest) => {
  asked.push(request)
  return { allowed: false as const, reason: 'denied in the test' }
}

const called: unknown[] = []
const github = mcpToolset(
  'github',
  'GitHub',
  [
    {
      name: 'create_issue',
      inputSchema: { type: 'object', properties: { title: { type: 'string' }, token: { type: 'string' } } },
    },
  ],
  {
    callTool: async (tool, args) => {
      called.push({ tool, args })
      return { content: [] }
    },
  },
)

describe('what a call touches, for the approval card', () => {
  it('an MCP tool names its server and tool; a denied call never reaches the server', async () => {
    const session = createToolSession({ toolsets: [github] })
    const asked: ApprovalRequest[] = []
    const result = await invoke(
      session,
      'github_create_issue',
      { title: 'Broken build', token: 'ghp_abcdefghijklmnopqrstuvwx' },
      { approve: deny(asked) },
    )
    expect(result).toMatchObject({ ok: false, stage: 'denied' })
    expect(asked[0]?.target).toEqual([
      { label: 'MCP server', value: 'GitHub' },
      { label: 'Tool', value: 'create_issue' },
    ])
    expect(called).toEqual([])
    await session.dispose()
  })

  it('sending mail names the account, recipients, subject and attachments (nothing is sent)', async () => {
    const email = await loadEmailToolset({
      settings: () => EmailSettings.parse({}),
      password: async () => undefined,
    })
    const session = createToolSession({ toolsets: [email] })
    const asked: ApprovalRequest[] = []
    const result = await invoke(
      session,
      'email_send',
      {
        to: ['marta@example.com', 'li@example.com'],
        cc: ['boss@example.com'],
        subject: 'Q1 report',
        markdown: 'Attached.',
        attachments: ['/reports/q1.pdf'],
      },
      { approve: deny(asked) },
    )
    expect(result).toMatchObject({ ok: false, stage: 'denied' })
    expect(asked[0]?.target).toEqual([
      { label: 'To', value: 'marta@example.com, li@example.com' },
      { label: 'Cc', value: 'boss@example.com' },
      { label: 'Subject', value: 'Q1 report' },
      { label: 'Attachments', value: '/reports/q1.pdf' },
    ])
    await session.dispose()
  })

  it('masks secret-looking arguments and cuts long strings; the call itself keeps the real values', () => {
    const masked = maskArgs({
      title: 'Build',
      api_key: 'abc',
      nested: { password: 'hunter2', note: 'uses Bearer abcdefghijklmnop1234 here', on: true },
      list: ['sk-proj-0123456789abcdefghij'],
      long: 'x'.repeat(5000),
      authorized: true,
    })
    expect(masked.title).toBe('Build')
    expect(masked.api_key).toMatch(/hidden/)
    expect(masked.nested).toEqual({
      password: '•••••• (hidden)',
      note: 'uses •••••• (hidden) here',
      on: true,
    })
    expect(masked.list).toEqual(['•••••• (hidden)'])
    expect(String(masked.long).length).toBe(2000)
    expect(masked.authorized).toBe(true)
  })

  it('the card the window gets carries the target and the masked arguments', async () => {
    const cards: ApprovalCall[] = []
    const approvals = createRunApprovals({
      model: () => {
        throw new Error('no model in this test')
      },
      workspace: () => {
        throw new Error('no workspace in this test')
      },
      approvals: () => ApprovalSettings.parse({}),
    })
    const gate = approvals.interactive('run-1', 'conv-1', {
      asked: (call) => {
        cards.push(call)
        approvals.answer('run-1', call.approvalId, 'deny')
      },
      ended: () => {},
    })
    const session = createToolSession({ toolsets: [github] })
    const result = await invoke(
      session,
      'github_create_issue',
      { title: 'Broken build', token: 'ghp_abcdefghijklmnopqrstuvwx' },
      gate ? { approve: gate } : {},
    )
    expect(result).toMatchObject({ ok: false, stage: 'denied' })
    expect(cards[0]).toMatchObject({
      toolset: 'github',
      method: 'createIssue',
      risk: 'external',
      args: { title: 'Broken build', token: '•••••• (hidden)' },
      target: [
        { label: 'MCP server', value: 'GitHub' },
        { label: 'Tool', value: 'create_issue' },
      ],
    })
    expect(JSON.stringify(cards)).not.toContain('ghp_')
    await session.dispose()
  })
})
