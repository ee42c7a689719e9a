// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { Composer } from '../../../src/renderer/src/chat/composer/Composer'
import { useComposer } from '../../../src/renderer/src/chat/composer/composerStore'

function setup(props: { running?: boolean } = {}) {
  const onSend = vi.fn()
  const onStop = vi.fn()
  render(<Composer running={props.running ?? false} sending={false} onSend={onSend} onStop={onStop} />)
  return { onSend, onStop, box: screen.getByRole('textbox', { name: 'Message' }) }
}

const file = (name: string, size: number, type = '') => new File([new Uint8Array(size)], name, { type })

describe('Composer', () => {
  beforeEach(() => {
    useComposer.getState().clear()
    useComposer.setState({ checkFile: undefined })
  })
  afterEach(cleanup)

  it('sends on Enter, not on Shift+Enter, and not when empty', () => {
    const { onSend, box } = setup()
    fireEvent.keyDown(box, { key: 'Enter' })
    expect(onSend).not.toHaveBeenCalled()
    fireEvent.change(box, { target: { value: 'Summarize this' } })
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true })
    expect(onSend).not.toHaveBeenCalled()
    fireEvent.keyDown(box, { key: 'Enter' })
    expect(onSend).toHaveBeenCalledWith('Summarize this')
  })

  it('stops with Esc and shows Stop instead of Send while an answer streams', () => {
    const { onStop, onSend, box } = setup({ running: true })
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull()
    fireEvent.change(box, { target: { value: 'more' } })
    fireEvent.keyDown(box, { key: 'Enter' })
    expect(onSend).not.toHaveBeenCalled()
    fireEvent.keyDown(box, { key: 'Escape' })
    expect(onStop).toHaveBeenCalledTimes(1)
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }))
    expect(onStop).toHaveBeenCalledTimes(2)
  })

  it('shows picked files as chips with type, size and remove, and can send files alone', () => {
    const { onSend } = setup()
    fireEvent.change(screen.getByTestId('file-input'), {
      target: { files: [file('report.docx', 2048), file('sales.xlsx', 10)] },
    })
    const chips = within(screen.getByRole('list', { name: 'Files to send' })).getAllByTestId(
      'attachment-chip',
    )
    expect(chips).toHaveLength(2)
    expect(chips[0]?.textContent).toMatch('report.docx')
    expect(chips[0]?.textContent).toMatch('2.0 KB')
    expect(within(chips[0] as HTMLElement).getByRole('img', { name: 'Document' })).toBeTruthy()
    expect(within(chips[1] as HTMLElement).getByRole('img', { name: 'Spreadsheet' })).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Remove report.docx' }))
    expect(screen.getAllByTestId('attachment-chip')).toHaveLength(1)
    fireEvent.click(screen.getByRole('button', { name: 'Send' }))
    expect(onSend).toHaveBeenCalledWith('')
  })

  it('says which files were not attached and why', () => {
    useComposer.setState({ limits: { maxFiles: 1, maxFileBytes: 100, maxTotalBytes: 1000 } })
    setup()
    fireEvent.change(screen.getByTestId('file-input'), {
      target: { files: [file('a.txt', 10), file('huge.pdf', 500), file('b.txt', 10)] },
    })
    const alert = screen.getByRole('alert')
    expect(alert?.textContent).toMatch('2 files were not attached')
    expect(alert?.textContent).toMatch('huge.pdf: 500 B is over the 100 B limit per file')
    expect(alert?.textContent).toMatch('b.txt: only 1 files fit in one message')
    expect(screen.getAllByTestId('attachment-chip')).toHaveLength(1)
    fireEvent.click(within(alert).getByRole('button', { name: 'Dismiss' }))
    expect(screen.queryByRole('alert')).toBeNull()
    useComposer.setState({
      limits: { maxFiles: 20, maxFileBytes: 25 * 1024 * 1024, maxTotalBytes: 40 * 1024 * 1024 },
    })
  })

  it('attaches pasted files instead of pasting text', () => {
    const { box } = setup()
    const pasted = file('image.png', 20, 'image/png')
    fireEvent.paste(box, { clipboardData: { files: [pasted], getData: () => '' } })
    const chip = screen.getByTestId('attachment-chip')
    expect(chip.textContent).toMatch(/pasted-.*\.png/)
  })
})
