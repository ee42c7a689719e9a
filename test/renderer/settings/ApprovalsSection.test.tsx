// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { BureauProvider } from '../../../src/renderer/src/ipc/BureauProvider'
import { defaultSettings, PublicSettings } from '../../../src/shared/settings'
import { fakeBureau } from '../../support/fakeBureau'

const invoke = vi.hoisted(() => vi.fn())
const bureau = fakeBureau({}, invoke)

const { ApprovalsSection } = await import('../../../src/renderer/src/settings/sections/ApprovalsSection')

function settingsWith(rules: Record<string, 'allow' | 'ask' | 'deny'>) {
  const base = defaultSettings()
  return PublicSettings.parse({
    ...base,
    approvals: { ...base.approvals, rules },
    secrets: {},
    secretStorage: { kind: 'key-file', secure: true },
  })
}

function setup(rules: Record<string, 'allow' | 'ask' | 'deny'>) {
  invoke.mockImplementation(async (route: string) => {
    if (route === 'tools.toolsets')
      return [
        { name: 'files', summary: 'Files', methods: 5 },
        { name: 'email', summary: 'Mail', methods: 3 },
      ]
    if (route === 'settings.update') return settingsWith(rules)
    throw new Error(`unexpected route ${route}`)
  })
  render(
    <BureauProvider client={bureau}>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <ApprovalsSection settings={settingsWith(rules)} />
      </QueryClientProvider>
    </BureauProvider>,
  )
}

describe('the Approvals section', () => {
  afterEach(() => {
    cleanup()
    invoke.mockReset()
  })

  it('lists the "always allow" rules, removes one at once and puts it back with Undo', async () => {
    setup({ 'files.writeText': 'allow', email: 'deny' })
    const list = screen.getByRole('list', { name: 'Rules for single tools' })
    expect(within(list).getByText('files.write_text')).toBeTruthy()
    expect(within(list).queryByText(/email/)).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Remove the rule for files.write_text' }))
    await waitFor(() =>
      expect(invoke).toHaveBeenCalledWith('settings.update', {
        approvals: { rules: { 'files.writeText': null } },
      }),
    )
    fireEvent.click(await screen.findByRole('button', { name: 'Undo' }))
    await waitFor(() =>
      expect(invoke).toHaveBeenCalledWith('settings.update', {
        approvals: { rules: { 'files.writeText': 'allow' } },
      }),
    )
  })

  it('saves the risk levels and the toolset rules, dropping a toolset set back to its risk level', async () => {
    setup({ email: 'deny' })
    fireEvent.change(screen.getByRole('combobox', { name: 'Acting outside' }), { target: { value: 'deny' } })
    const files = await screen.findByRole('combobox', { name: 'files' })
    fireEvent.change(files, { target: { value: 'ask' } })
    fireEvent.change(screen.getByRole('combobox', { name: 'email' }), { target: { value: '' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() =>
      expect(invoke).toHaveBeenCalledWith('settings.update', {
        approvals: {
          read: 'allow',
          write: 'allow',
          external: 'deny',
          timeoutSeconds: 120,
          rules: { email: null, files: 'ask' },
        },
      }),
    )
  })

  it('shows a wrong timeout while it is typed and saves nothing', async () => {
    setup({})
    const timeout = screen.getByRole('textbox', { name: 'Unanswered requests are denied after (seconds)' })
    fireEvent.change(timeout, { target: { value: '2' } })
    expect(screen.getByText('Enter a whole number between 5 and 3,600.')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(document.activeElement).toBe(timeout))
    expect(invoke.mock.calls.map(([route]) => route)).not.toContain('settings.update')
  })
})
