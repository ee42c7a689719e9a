// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { EntryNameForm } from '../../../src/renderer/src/workspace/EntryNameForm'

describe('EntryNameForm (rename and new folder)', () => {
  afterEach(cleanup)

  it('stores the checked name, then closes; Escape and Cancel close without storing', async () => {
    const stored: string[] = []
    let closed = 0
    render(
      <EntryNameForm
        initial="old.txt"
        inputLabel="New name for old.txt"
        submitLabel="Rename"
        className="rename-form"
        errorId="rename-error"
        eager
        onSubmit={async (name) => {
          stored.push(name)
        }}
        onDone={() => closed++}
      />,
    )
    const input = screen.getByLabelText('New name for old.txt')
    fireEvent.change(input, { target: { value: 'new.txt' } })
    fireEvent.click(screen.getByRole('button', { name: 'Rename' }))
    await waitFor(() => expect(closed).toBe(1))
    expect(stored).toEqual(['new.txt'])
    fireEvent.keyDown(input, { key: 'Escape' })
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(closed).toBe(3)
    expect(stored).toEqual(['new.txt'])
  })

  it('a new folder form shows a bad name only once tried, and a storing error under the field', async () => {
    let closed = 0
    render(
      <EntryNameForm
        initial=""
        inputLabel="Folder name"
        submitLabel="Create"
        className="new-folder"
        formLabel="New folder"
        errorId="new-folder-error"
        onSubmit={async () => {
          throw new Error('A folder of that name exists.')
        }}
        onDone={() => closed++}
      />,
    )
    expect(screen.queryByRole('alert')).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Create' }))
    await waitFor(() => expect(screen.getByRole('alert').textContent).not.toBe(''))
    const input = screen.getByLabelText('Folder name')
    expect(input.getAttribute('aria-invalid')).toBe('true')
    fireEvent.change(input, { target: { value: 'Reports' } })
    fireEvent.submit(screen.getByRole('form', { name: 'New folder' }))
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('A folder of that name exists.'))
    expect(input.getAttribute('aria-describedby')).toBe('new-folder-error')
    expect(closed).toBe(0)
  })
})
