// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { AttachmentChip } from '../../../src/renderer/src/components/AttachmentChip'

describe('AttachmentChip', () => {
  afterEach(cleanup)

  it('shows the conversion error with its reason as an alert', () => {
    render(
      <ul>
        <AttachmentChip
          name="broken.docx"
          size={1536}
          status="failed"
          error="Not a Word document: the zip is damaged."
        />
      </ul>,
    )
    const chip = screen.getByTestId('attachment-chip')
    expect(chip.dataset.status).toBe('failed')
    expect(screen.getByRole('alert')?.textContent).toMatch('Not a Word document: the zip is damaged.')
    expect(chip?.textContent).toMatch('1.5 KB')
    expect(screen.queryByRole('button')).toBeNull()
  })

  it('shows how much text the model got and whether the budget cut it', () => {
    render(
      <ul>
        <AttachmentChip name="long.pdf" size={100} status="converted" chars={15000} truncated />
      </ul>,
    )
    expect(screen.getByTestId('attachment-chip')?.textContent).toMatch(/15,000 chars, cut to fit/)
  })

  it('shows what the converter could not read faithfully, without an alert', () => {
    const warning =
      'DeepSeek (deepseek-chat) does not read images (its supportsVision is off); images and scanned pages were read with OCR instead'
    render(
      <ul>
        <AttachmentChip name="scan.png" size={100} status="converted" chars={300} warnings={[warning]} />
      </ul>,
    )
    const chip = screen.getByTestId('attachment-chip')
    // Screen readers hear it as a warning; the eye sees the icon and colour.
    expect(chip.querySelector('.chip-warning')?.textContent).toBe(`Warning: ${warning}`)
    expect(chip.querySelector('.chip-warning .visually-hidden')?.textContent).toBe('Warning: ')
    expect(chip.textContent).toMatch('300 chars')
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('shows progress while the file is read', () => {
    render(
      <ul>
        <AttachmentChip name="a.xlsx" size={100} status="converting" />
      </ul>,
    )
    expect(screen.getByTestId('attachment-chip')?.textContent).toMatch('Reading…')
  })
})
