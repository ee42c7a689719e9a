// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { useChat } from '../../../src/renderer/src/chat/chatStore'
import { ApprovalCard } from '../../../src/renderer/src/chat/messages/ApprovalCard'
import { shownArgs } from '../../../src/renderer/src/chat/messages/approvalText'
import type { ApprovalCall } from '../../../src/shared/ipc'

const ref = { runId: 'r1', conversationId: 'c1', messageId: 'm-a' }
const run = { runId: 'r1', conversationId: 'c1', userMessageId: 'm-u', assistantMessageId: 'm-a' }
const call = (over: Partial<ApprovalCall> = {}): ApprovalCall => ({
  approvalId: 'a1',
  toolset: 'files',
  method: 'writeText',
  name: 'files_write_text',
  risk: 'write',
  args: { path: '/notes/a.txt', content: 'hello' },
  expiresAt: new Date(Date.now() + 60_000).toISOString(),
  ...over,
})

describe('approval card state', () => {
  beforeEach(() => {
    useChat.setState({ run: { ...run }, sending: false, approvalNote: undefined, early: [] })
  })

  it('shows a card per pending call and removes it when the approval ends', () => {
    useChat.getState().onApproval({ ...ref, call: call() })
    expect(useChat.getState().run?.approvals?.map((a) => a.call.approvalId)).toEqual(['a1'])
    useChat.getState().approvalAnswered('a1', 'once')
    useChat.getState().onApprovalEnd({ ...ref, approvalId: 'a1', outcome: 'allowed' })
    expect(useChat.getState().run?.approvals).toEqual([])
    expect(useChat.getState().approvalNote).toBeUndefined()
  })

  it('leaves a note when an unanswered card is denied after its deadline', () => {
    useChat
      .getState()
      .onApproval({ ...ref, call: call({ expiresAt: new Date(Date.now() - 10).toISOString() }) })
    useChat.getState().onApprovalEnd({ ...ref, approvalId: 'a1', outcome: 'denied' })
    expect(useChat.getState().approvalNote).toBe('Denied: no answer in time for files writeText.')
  })

  it('leaves no note when the user denied, or when the run stopped before the deadline', () => {
    useChat
      .getState()
      .onApproval({ ...ref, call: call({ expiresAt: new Date(Date.now() - 10).toISOString() }) })
    useChat.getState().approvalAnswered('a1', 'deny')
    useChat.getState().onApprovalEnd({ ...ref, approvalId: 'a1', outcome: 'denied' })
    useChat.getState().onApproval({ ...ref, call: call({ approvalId: 'a2' }) })
    useChat.getState().onApprovalEnd({ ...ref, approvalId: 'a2', outcome: 'denied' })
    expect(useChat.getState().approvalNote).toBeUndefined()
  })

  it('ignores approvals of another run', () => {
    useChat.getState().onApproval({ ...ref, runId: 'other', call: call() })
    expect(useChat.getState().run?.approvals).toBeUndefined()
  })
})

describe('approval card', () => {
  afterEach(cleanup)

  it('cuts long values and keeps the whole value as the tooltip', () => {
    const [content] = shownArgs({ content: 'x'.repeat(500) }, 20)
    expect(content?.text).toHaveLength(20)
    expect(content?.text.endsWith('…')).toBe(true)
    expect(content?.full).toHaveLength(500)
    expect(shownArgs({ n: 3, list: [1, 2] })).toEqual([
      { name: 'n', text: '3' },
      { name: 'list', text: '[1,2]' },
    ])
  })

  it('shows the exact call, takes focus and answers with the decision values', () => {
    const onAnswer = vi.fn()
    render(<ApprovalCard pending={{ call: call({ risk: 'external' }) }} onAnswer={onAnswer} />)
    const dialog = screen.getByRole('alertdialog', { name: 'Allow this action?' })
    expect(document.activeElement).toBe(dialog)
    expect(dialog.textContent).toContain('files')
    expect(dialog.textContent).toContain('writeText')
    expect(dialog.textContent).toContain('/notes/a.txt')
    expect(dialog.textContent).toContain('Acts outside Bureau')
    fireEvent.click(screen.getByRole('button', { name: 'Always allow in this conversation' }))
    fireEvent.click(screen.getByRole('button', { name: 'Deny' }))
    expect(onAnswer.mock.calls).toEqual([['conversation'], ['deny']])
  })

  it('shows what the call acts on: the page and the element of a click', () => {
    render(
      <ApprovalCard
        pending={{
          call: call({
            toolset: 'web',
            method: 'click',
            risk: 'external',
            args: { id: 'e12' },
            target: [
              { label: 'Page', value: 'https://shop.example.com/cart' },
              { label: 'Element', value: 'button "Place order" (e12)' },
            ],
          }),
        }}
        onAnswer={() => {}}
      />,
    )
    const target = document.querySelector('dl[aria-label="What it acts on"]') as HTMLElement
    expect(target.textContent).toContain('Pagehttps://shop.example.com/cart')
    expect(target.textContent).toContain('Elementbutton "Place order" (e12)')
  })

  it('disables the buttons once answered', () => {
    render(<ApprovalCard pending={{ call: call(), answer: 'once' }} onAnswer={() => {}} />)
    for (const button of screen.getAllByRole('button'))
      expect((button as HTMLButtonElement).disabled).toBe(true)
  })
})
