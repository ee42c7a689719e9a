// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { BureauProvider } from '../../../src/renderer/src/ipc/BureauProvider'
import type { StartForBureauResult } from '../../../src/shared/ipc'
import { fakeBureau } from '../../support/fakeBureau'

const invoke = vi.hoisted(() => vi.fn())
const bureau = fakeBureau({}, invoke)

const { StartBrowserForBureau } = await import('../../../src/renderer/src/settings/StartBrowserForBureau')

function setup(disabled = false) {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } })
  render(
    <BureauProvider client={bureau}>
      <QueryClientProvider client={client}>
        <StartBrowserForBureau disabled={disabled} />
      </QueryClientProvider>
    </BureauProvider>,
  )
  return screen.getByRole('button', { name: 'Start Edge for Bureau' })
}

const started = (result: Partial<StartForBureauResult>): StartForBureauResult => ({
  endpoint: 'http://127.0.0.1:9333',
  browser: 'msedge',
  reused: false,
  ...result,
})

describe('Start Edge for Bureau', () => {
  afterEach(() => {
    cleanup()
    invoke.mockReset()
  })

  it('shows progress, then the browser started and its endpoint', async () => {
    let answer: (value: StartForBureauResult) => void = () => {}
    invoke.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)))
    const button = setup()
    fireEvent.click(button)
    expect(await screen.findByText('Starting the browser…')).toBeTruthy()
    expect((button as HTMLButtonElement).disabled).toBe(true)
    expect(invoke).toHaveBeenCalledWith('browser.startForBureau')
    answer(started({}))
    expect((await screen.findByTestId('bureau-browser-endpoint')).textContent).toBe('http://127.0.0.1:9333')
    expect(screen.getByRole('status').textContent).toMatch(
      /^Started Edge at http:\/\/127\.0\.0\.1:9333\. The mode is now/,
    )
  })

  it('says when the browser was already running and was reused', async () => {
    invoke.mockResolvedValueOnce(started({ browser: 'chrome', reused: true }))
    fireEvent.click(setup())
    expect(await screen.findByText(/Chrome was already running for Bureau; connected at/)).toBeTruthy()
  })

  it("shows the host's error with what to do", async () => {
    invoke.mockRejectedValueOnce(new Error('No Edge or Chrome was found on this computer.'))
    fireEvent.click(setup())
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('No Edge or Chrome was found on this computer.')
    expect(alert.textContent).toContain('What to do:')
    expect(screen.queryByTestId('bureau-browser-endpoint')).toBeNull()
  })

  it('waits for unsaved browser settings to be saved first', () => {
    const button = setup(true) as HTMLButtonElement
    expect(button.disabled).toBe(true)
    expect(button.title).toBe('Save the changes first')
  })

  it('never promises the default profile: it explains the Bureau profile', () => {
    setup()
    const hint = screen.getByText(/separate Bureau profile/)
    expect(hint.textContent).toContain('sign in to your sites once')
    expect(hint.textContent).toContain('refuse remote debugging on their default profile')
  })
})
