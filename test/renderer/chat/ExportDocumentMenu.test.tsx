// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ReactNode } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { useChat } from '../../../src/renderer/src/chat/chatStore'
import { ExportDocumentMenu } from '../../../src/renderer/src/chat/ExportDocumentMenu'
import { MessageItem } from '../../../src/renderer/src/chat/messages/MessageItem'
import { SINGLE } from '../../../src/renderer/src/chat/messages/versions'
import { BureauProvider } from '../../../src/renderer/src/ipc/BureauProvider'
import type { ChatMessage } from '../../../src/shared/ipc'
import { fakeBureau } from '../../support/fakeBureau'

const invoke = vi.hoisted(() => vi.fn())
const bureau = fakeBureau({}, invoke)
const wrapper = ({ children }: { children: ReactNode }) => (
  <BureauProvider client={bureau}>{children}</BureauProvider>
)

function deferred<T>() {
  let resolve: (value: T) => void = () => {}
  let reject: (error: Error) => void = () => {}
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

const summary = () => screen.getByText('Export document', { selector: 'summary' })
const details = () => summary().closest('details') as HTMLDetailsElement

describe('ExportDocumentMenu', () => {
  afterEach(() => {
    cleanup()
    invoke.mockReset()
  })

  it('is driven from the keyboard: open, Tab to a format, Enter exports, Escape closes', async () => {
    const user = userEvent.setup()
    const reply = deferred<{ agentPath: string; bytes: number; warnings: string[] }>()
    invoke.mockReturnValue(reply.promise)
    render(<ExportDocumentMenu conversationId="c1" />, { wrapper })
    await user.tab()
    expect(document.activeElement).toBe(summary())
    details().open = true
    await user.keyboard('{Escape}')
    expect(details().open).toBe(false)
    details().open = true
    await user.tab()
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Word (.docx)' }))
    await user.keyboard('{Enter}')
    expect(invoke).toHaveBeenCalledWith('documents.exportConversation', { id: 'c1', format: 'docx' })
    // While it writes: the menu closes, both formats are disabled, the status says what is happening.
    expect(details().open).toBe(false)
    expect(document.activeElement).toBe(summary())
    expect(screen.getByRole('status').textContent).toBe('Writing the Word (.docx) document…')
    for (const item of screen.getAllByRole('menuitem', { hidden: true }))
      expect((item as HTMLButtonElement).disabled).toBe(true)
    reply.resolve({ agentPath: '/exports/Budget.docx', bytes: 1200, warnings: [] })
    expect(await screen.findByText('/exports/Budget.docx')).toBeTruthy()
    expect(screen.getByRole('status').textContent).toBe('Saved to /exports/Budget.docx Download Budget.docx')
    expect((screen.getByRole('menuitem', { name: 'PDF', hidden: true }) as HTMLButtonElement).disabled).toBe(
      false,
    )
    // The saved file is one click from the user's Downloads: its bytes are read from the workspace.
    invoke.mockResolvedValue({
      name: 'Budget.docx',
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      bytes: new Uint8Array([80, 75]),
    })
    URL.createObjectURL = vi.fn(() => 'blob:budget')
    await user.click(screen.getByRole('button', { name: 'Download Budget.docx' }))
    expect(invoke).toHaveBeenLastCalledWith('workspace.readFile', { path: '/exports/Budget.docx' })
  })

  it('shows warnings with the file, and a failure as an alert that the next export clears', async () => {
    const user = userEvent.setup()
    invoke.mockRejectedValueOnce(new Error('No Chromium, Chrome or Edge found'))
    invoke.mockResolvedValueOnce({
      agentPath: '/exports/Budget.pdf',
      bytes: 900,
      pages: 2,
      warnings: ['Image "/x.png" was not found.'],
    })
    render(<ExportDocumentMenu conversationId="c1" />, { wrapper })
    details().open = true
    await user.click(screen.getByRole('menuitem', { name: 'PDF' }))
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Export failed: No Chromium, Chrome or Edge found',
    )
    details().open = true
    await user.click(screen.getByRole('menuitem', { name: 'PDF' }))
    expect(await screen.findByText('/exports/Budget.pdf')).toBeTruthy()
    expect(screen.getByRole('status').textContent).toBe(
      'Saved to /exports/Budget.pdf (Image "/x.png" was not found.) Download Budget.pdf',
    )
    expect(screen.queryByRole('alert')).toBeNull()
  })
})

const message = (
  id: string,
  role: ChatMessage['role'],
  text: string,
  status: ChatMessage['status'] = 'done',
) =>
  ({
    id,
    role,
    text,
    createdAt: '2025-01-01T00:00:00.000Z',
    status,
    attachments: [],
    steps: [],
    files: [],
  }) satisfies ChatMessage

function renderMessage(m: ChatMessage) {
  return render(
    <BureauProvider client={bureau}>
      <QueryClientProvider client={new QueryClient()}>
        <MessageItem message={m} busy={false} version={SINGLE} />
      </QueryClientProvider>
    </BureauProvider>,
  )
}

describe("an answer's own export", () => {
  afterEach(() => {
    cleanup()
    invoke.mockReset()
    useChat.setState({ conversationId: undefined })
  })

  it('is among the answer actions, named for screen readers, and exports only that answer', async () => {
    const user = userEvent.setup()
    useChat.setState({ conversationId: 'c1' })
    invoke.mockResolvedValue({ agentPath: '/exports/Budget.pdf', bytes: 900, pages: 1, warnings: [] })
    renderMessage(message('a7', 'assistant', 'The East grew by 7 %.'))
    const summary = screen.getByText('Export', { selector: 'summary' })
    // Visible "Export", heard as "Export this answer".
    expect(summary.textContent).toBe('Export this answer')
    expect(summary.querySelector('.visually-hidden')?.textContent).toBe(' this answer')
    summary.focus()
    ;(summary.closest('details') as HTMLDetailsElement).open = true
    const menu = screen.getByRole('menu', { name: 'Export this answer' })
    await user.keyboard('{ArrowDown}')
    expect(document.activeElement).toBe(within(menu).getByRole('menuitem', { name: 'Word (.docx)' }))
    await user.keyboard('{ArrowDown}')
    expect(document.activeElement).toBe(within(menu).getByRole('menuitem', { name: 'PDF' }))
    await user.keyboard('{ArrowDown}')
    expect(document.activeElement).toBe(within(menu).getByRole('menuitem', { name: 'Word (.docx)' }))
    await user.keyboard('{ArrowUp}{Enter}')
    expect(invoke).toHaveBeenCalledWith('documents.exportConversation', {
      id: 'c1',
      format: 'pdf',
      messageId: 'a7',
    })
    expect(await screen.findByText('/exports/Budget.pdf')).toBeTruthy()
    expect(document.activeElement).toBe(summary)
  })

  it('is not offered on a question, an answer still streaming, an empty answer or without a conversation', () => {
    useChat.setState({ conversationId: 'c1' })
    for (const m of [
      message('u1', 'user', 'How did we do?'),
      message('a1', 'assistant', 'Half an ans', 'streaming'),
      message('a2', 'assistant', '', 'error'),
    ]) {
      renderMessage(m)
      expect(screen.queryByText('Export', { selector: 'summary' })).toBeNull()
      cleanup()
    }
    useChat.setState({ conversationId: undefined })
    renderMessage(message('a3', 'assistant', 'Done.'))
    expect(screen.queryByText('Export', { selector: 'summary' })).toBeNull()
  })

  it('closes when focus leaves it, so two answers never have their menus open at once', async () => {
    const user = userEvent.setup()
    render(
      <BureauProvider client={bureau}>
        <ExportDocumentMenu conversationId="c1" messageId="a1" />
        <ExportDocumentMenu conversationId="c1" messageId="a2" />
      </BureauProvider>,
    )
    const [first, second] = screen.getAllByText('Export', { selector: 'summary' })
    const firstMenu = first?.closest('details') as HTMLDetailsElement
    first?.focus()
    firstMenu.open = true
    await user.tab()
    expect(firstMenu.open).toBe(true) // focus went to a format inside the menu
    await user.tab()
    await user.tab()
    expect(document.activeElement).toBe(second)
    expect(firstMenu.open).toBe(false)
  })
})
