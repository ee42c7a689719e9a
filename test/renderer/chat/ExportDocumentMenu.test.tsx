// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ExportDocumentMenu } from '../../../src/renderer/src/chat/ExportDocumentMenu'

const invoke = vi.hoisted(() => vi.fn())
vi.mock('../../../src/renderer/src/ipc/bureauClient', () => ({ bureau: { invoke, on: () => () => {} } }))

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
    render(<ExportDocumentMenu conversationId="c1" />)
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
    expect(screen.getByRole('status').textContent).toBe('Saved to /exports/Budget.docx')
    expect((screen.getByRole('menuitem', { name: 'PDF', hidden: true }) as HTMLButtonElement).disabled).toBe(
      false,
    )
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
    render(<ExportDocumentMenu conversationId="c1" />)
    details().open = true
    await user.click(screen.getByRole('menuitem', { name: 'PDF' }))
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Export failed: No Chromium, Chrome or Edge found',
    )
    details().open = true
    await user.click(screen.getByRole('menuitem', { name: 'PDF' }))
    expect(await screen.findByText('/exports/Budget.pdf')).toBeTruthy()
    expect(screen.getByRole('status').textContent).toBe(
      'Saved to /exports/Budget.pdf (Image "/x.png" was not found.)',
    )
    expect(screen.queryByRole('alert')).toBeNull()
  })
})
