// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { Composer } from '../../../src/renderer/src/chat/composer/Composer'
import { useComposer } from '../../../src/renderer/src/chat/composer/composerStore'
import type { AttachmentCheckResult } from '../../../src/shared/ipc'

// A chip says Reading… while the host converts the file, then Ready or the error.
const file = (name: string, size: number) => new File([new Uint8Array(size)], name)

function deferredChecks() {
  const pending = new Map<string, (result: AttachmentCheckResult) => void>()
  const counts: number[] = []
  const checkFile = vi.fn(
    (f: File, count: number) =>
      new Promise<AttachmentCheckResult>((resolve) => {
        counts.push(count)
        pending.set(f.name, resolve)
      }),
  )
  const settle = (name: string, result: AttachmentCheckResult) =>
    act(async () => {
      pending.get(name)?.(result)
    })
  return { checkFile, settle, counts }
}

const chipOf = (name: string) =>
  within(screen.getByRole('list', { name: 'Files to send' }))
    .getAllByTestId('attachment-chip')
    .find((chip) => chip.textContent?.includes(name)) as HTMLElement

describe('composer chips from the pre-send check', () => {
  beforeEach(() => useComposer.getState().clear())
  afterEach(cleanup)

  it('Reading… then Ready for a good file, the converter message for a bad one; Send stays possible', async () => {
    const checks = deferredChecks()
    useComposer.setState({ checkFile: checks.checkFile })
    const onSend = vi.fn()
    render(<Composer running={false} sending={false} onSend={onSend} onStop={vi.fn()} />)
    fireEvent.change(screen.getByTestId('file-input'), {
      target: { files: [file('report.docx', 2048), file('random.bin', 64)] },
    })
    expect(checks.checkFile).toHaveBeenCalledTimes(2)
    // Both files go in one message: each check uses the budget share of two files.
    expect(checks.counts).toEqual([2, 2])
    expect(chipOf('report.docx').dataset.status).toBe('converting')
    const status = within(chipOf('report.docx')).getByRole('status')
    expect(status.textContent).toBe('report.docx: Reading…')
    expect(screen.queryByText('Ready')).toBeNull()

    await checks.settle('report.docx', {
      status: 'converted',
      format: 'docx',
      chars: 1200,
      truncated: false,
      warnings: [],
    })
    expect(chipOf('report.docx').dataset.status).toBe('ready')
    expect(within(chipOf('report.docx')).getByRole('status').textContent).toBe('report.docx: Ready')
    expect(chipOf('random.bin').dataset.status).toBe('converting')

    const error = 'Cannot convert "random.bin": this is not a document format Bureau can read'
    await checks.settle('random.bin', { status: 'failed', error })
    const bad = chipOf('random.bin')
    expect(bad.dataset.status).toBe('failed')
    expect(within(bad).getByRole('alert').textContent).toContain(error)
    expect(within(bad).getByRole('button', { name: 'Remove random.bin' })).toBeTruthy()

    const send = screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement
    expect(send.disabled).toBe(false)
    fireEvent.click(send)
    expect(onSend).toHaveBeenCalledWith('')
  })

  it('removes a chip from the keyboard and moves focus to the next chip, then to the message box', async () => {
    useComposer.setState({ checkFile: () => Promise.resolve({ status: 'failed', error: 'Cannot convert' }) })
    render(<Composer running={false} sending={false} onSend={vi.fn()} onStop={vi.fn()} />)
    fireEvent.change(screen.getByTestId('file-input'), {
      target: { files: [file('a.bin', 10), file('b.bin', 20)] },
    })
    await waitFor(() => expect(chipOf('a.bin').dataset.status).toBe('failed'))
    const removeA = screen.getByRole('button', { name: 'Remove a.bin' })
    removeA.focus()
    // A native button activates on Enter; the click event is what it fires.
    fireEvent.click(removeA)
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('Remove b.bin'))
    fireEvent.click(screen.getByRole('button', { name: 'Remove b.bin' }))
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Message' })))
    expect(screen.queryByRole('list', { name: 'Files to send' })).toBeNull()
  })

  it('says "Read on Send" when the host could not be asked, never "Ready"', async () => {
    useComposer.setState({ checkFile: () => Promise.reject(new Error('host unreachable')) })
    render(<Composer running={false} sending={false} onSend={vi.fn()} onStop={vi.fn()} />)
    fireEvent.change(screen.getByTestId('file-input'), { target: { files: [file('notes.txt', 5)] } })
    await waitFor(() => expect(chipOf('notes.txt').dataset.status).toBe('unchecked'))
    expect(chipOf('notes.txt').textContent).toContain('Read on Send')
  })

  it('a check that ends after its chip was removed changes nothing', async () => {
    const checks = deferredChecks()
    useComposer.setState({ checkFile: checks.checkFile })
    render(<Composer running={false} sending={false} onSend={vi.fn()} onStop={vi.fn()} />)
    fireEvent.change(screen.getByTestId('file-input'), { target: { files: [file('late.pdf', 5)] } })
    fireEvent.click(screen.getByRole('button', { name: 'Remove late.pdf' }))
    await checks.settle('late.pdf', { status: 'failed', error: 'x' })
    expect(useComposer.getState().files).toEqual([])
  })
})
