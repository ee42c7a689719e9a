// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { BureauProvider } from '../../../src/renderer/src/ipc/BureauProvider'
import { defaultSettings, PublicSettings } from '../../../src/shared/settings'
import { fakeBureau } from '../../support/fakeBureau'

const invoke = vi.hoisted(() => vi.fn())
const bureau = fakeBureau({}, invoke)

const { LocalModelsSection } = await import('../../../src/renderer/src/settings/sections/LocalModelsSection')

const settings = PublicSettings.parse({
  ...defaultSettings(),
  secrets: {},
  secretStorage: { kind: 'key-file', secure: true },
})
const installed = [
  { id: 'tiny', name: 'Tiny', fileName: 'tiny.gguf', sizeBytes: 1_700_000, inUse: true, installedAt: null },
  {
    id: 'other',
    name: 'Other',
    fileName: 'other.gguf',
    sizeBytes: 3 * 1024 ** 3,
    inUse: false,
    installedAt: null,
  },
]
const catalogue = [
  {
    id: 'qwen3-1.7b-q8',
    name: 'Qwen3 1.7B',
    sizeBytes: 1_834_426_016,
    licence: 'Apache-2.0',
    parameters: '1.7B',
    quantisation: 'Q8_0',
    minRamGiB: 3,
    notes: null,
    installed: false,
    fitsMemory: true,
  },
]
const speeds = [
  {
    id: 'qwen3-1.7b-q8',
    speed: { wordsPerSecond: 2.2, tokensPerSecond: 2.9, limitedBy: 'memory', gpu: 'vulkan' },
  },
]

function setup() {
  invoke.mockImplementation(async (route: string) => {
    if (route === 'models.list') return installed
    if (route === 'models.catalogue') return catalogue
    if (route === 'models.speeds') return speeds
    if (route === 'models.downloads') return []
    if (route === 'models.pull') return {}
    if (route === 'models.use') return { providerId: 'local', model: 'other' }
    if (route === 'settings.update') return settings
    throw new Error(`unexpected route ${route}`)
  })
  render(
    <BureauProvider client={bureau}>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <LocalModelsSection settings={settings} />
      </QueryClientProvider>
    </BureauProvider>,
  )
}

describe('Local models settings', () => {
  afterEach(() => {
    cleanup()
    invoke.mockReset()
  })

  it('lists installed models with file name and size, marks the one in use, and can switch', async () => {
    setup()
    const list = await screen.findByRole('list', { name: 'Installed models' })
    await waitFor(() => expect(list.textContent).toContain('tiny.gguf · 1.6 MB'))
    expect(list.textContent).toContain('other.gguf · 3.0 GB')
    expect(screen.getByText('In use')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Use Other' }))
    await waitFor(() => expect(invoke).toHaveBeenCalledWith('models.use', { id: 'other' }))
  })

  it('starts a download and shows its progress bar with speed and time left from models.progress', async () => {
    setup()
    fireEvent.click(await screen.findByRole('button', { name: /Download Qwen3 1.7B/ }))
    expect(
      await screen.findByText(
        'About 2.2 words per second on this computer (estimate); likely faster with the vulkan GPU found here.',
      ),
    ).toBeTruthy()
    await waitFor(() => expect(invoke).toHaveBeenCalledWith('models.pull', { id: 'qwen3-1.7b-q8' }))
    act(() =>
      bureau.emit('models.progress', {
        id: 'qwen3-1.7b-q8',
        name: 'Qwen3 1.7B',
        state: 'downloading',
        receivedBytes: 512 * 1024 ** 2,
        totalBytes: 1024 ** 3,
        speed: 8 * 1024 ** 2,
        etaSeconds: 64,
        message: null,
      }),
    )
    const bar = screen.getByRole('progressbar', { name: 'Downloading Qwen3 1.7B' }) as HTMLProgressElement
    expect(bar.value).toBe(512 * 1024 ** 2)
    expect(screen.getByText(/512 MB of 1.0 GB · 8.0 MB\/s · 2 min left/)).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy()
  })

  it('refuses a file too large for the window and points to bureau models import', async () => {
    setup()
    const input = screen.getByLabelText('Use a .gguf file I already have') as HTMLInputElement
    const big = new File(['x'], 'big.gguf')
    Object.defineProperty(big, 'size', { value: 41 * 1024 * 1024 })
    fireEvent.change(input, { target: { files: [big] } })
    expect(await screen.findByText(/bureau models import <file.gguf>` in a terminal instead/)).toBeTruthy()
    expect(invoke).not.toHaveBeenCalledWith('models.import', expect.anything())
  })

  it('saves the idle unload time', async () => {
    setup()
    const idle = screen.getByLabelText('Free the loaded model after (minutes idle)')
    fireEvent.change(idle, { target: { value: '0' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() =>
      expect(invoke).toHaveBeenCalledWith('settings.update', { localModels: { idleUnloadMinutes: 0 } }),
    )
  })
})
