// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { BureauProvider } from '../../../src/renderer/src/ipc/BureauProvider'
import { defaultSettings, PublicSettings } from '../../../src/shared/settings'
import { fakeBureau } from '../../support/fakeBureau'

const invoke = vi.hoisted(() => vi.fn())
const bureau = fakeBureau({}, invoke)

const { AttachmentsSection } = await import('../../../src/renderer/src/settings/sections/AttachmentsSection')

function setup() {
  const settings = PublicSettings.parse({
    ...defaultSettings(),
    secrets: {},
    secretStorage: { kind: 'key-file', secure: true },
  })
  invoke.mockImplementation(async (route: string) => {
    if (route === 'settings.update') return settings
    throw new Error(`unexpected route ${route}`)
  })
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } })
  render(
    <BureauProvider client={bureau}>
      <QueryClientProvider client={client}>
        <AttachmentsSection settings={settings} />
      </QueryClientProvider>
    </BureauProvider>,
  )
  return screen.getByRole('combobox', { name: 'Images and scanned pages' }) as HTMLSelectElement
}

describe('Attachments settings', () => {
  afterEach(() => {
    cleanup()
    invoke.mockReset()
  })

  it('keeps pictures on this computer by default and says so', () => {
    const vision = setup()
    expect(vision.value).toBe('off')
    expect(screen.getByText(/nothing leaves it/)).toBeTruthy()
  })

  it('allowing the vision model explains that pictures are sent to the provider, and saves the choice', async () => {
    const vision = setup()
    fireEvent.change(vision, { target: { value: 'when-supported' } })
    expect(screen.getByText(/pictures themselves are sent to the active provider/)).toBeTruthy()
    expect(screen.getByText(/fall back to OCR/)).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() =>
      expect(invoke).toHaveBeenCalledWith('settings.update', {
        attachments: { budgetChars: 30_000, vision: 'when-supported' },
      }),
    )
  })
})
