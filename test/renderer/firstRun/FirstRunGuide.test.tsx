// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { BureauProvider } from '../../../src/renderer/src/ipc/BureauProvider'
import { defaultSettings, PublicSettings } from '../../../src/shared/settings'
import { fakeBureau } from '../../support/fakeBureau'

const invoke = vi.hoisted(() => vi.fn())
const bureau = fakeBureau({}, invoke)

const { FirstRunGuide } = await import('../../../src/renderer/src/firstRun/FirstRunGuide')

const settingsWith = (ui: Record<string, unknown>) =>
  PublicSettings.parse({
    ...defaultSettings(),
    ui: { ...defaultSettings().ui, ...ui },
    secrets: {},
    secretStorage: { kind: 'key-file', secure: true },
  })
const fail = {
  id: 'ollama',
  ok: false,
  latencyMs: 1,
  model: 'qwen3:8b',
  reply: null,
  error: { code: 'UNAVAILABLE', message: 'Cannot reach Ollama.' },
}
const pass = { id: 'local', ok: true, latencyMs: 5, model: 'tiny', reply: 'x', error: null }

function setup(ui: Record<string, unknown> = {}, effective = 'ollama', compact = false) {
  const settings = settingsWith(ui)
  invoke.mockImplementation(async (route: string, input: { id?: string; draft?: { apiKey?: string } }) => {
    if (route === 'providers.test' && input.id === 'deepseek')
      return input.draft?.apiKey === 'sk-good'
        ? { ...pass, id: 'deepseek', model: 'deepseek-chat' }
        : {
            ...fail,
            id: 'deepseek',
            error: { code: 'UNAUTHORIZED', message: 'DeepSeek refused the API key.' },
          }
    if (route === 'providers.test') return input.id === 'local' ? pass : fail
    if (route === 'settings.setSecret') return { name: 'x', set: true }
    if (route === 'models.catalogue')
      return [
        {
          id: 'big',
          name: 'Big',
          sizeBytes: 5e9,
          licence: 'A',
          parameters: '8B',
          quantisation: 'Q4',
          minRamGiB: 8,
          notes: null,
          installed: false,
          fitsMemory: true,
        },
        {
          id: 'small',
          name: 'Small',
          sizeBytes: 1_834_426_016,
          licence: 'A',
          parameters: '1.7B',
          quantisation: 'Q8',
          minRamGiB: 3,
          notes: null,
          installed: false,
          fitsMemory: true,
        },
      ]
    if (route === 'models.speeds')
      return [
        { id: 'small', speed: { wordsPerSecond: 4.4, tokensPerSecond: 5.9, limitedBy: 'memory', gpu: null } },
      ]
    if (route === 'models.downloads') return []
    if (route === 'ollama.status')
      return {
        running: false,
        url: 'http://127.0.0.1:11434',
        models: [],
        error: 'Nothing answers.',
        hint: 'Install Ollama from https://ollama.com/download',
      }
    if (route === 'providers.list')
      return [
        { id: 'ollama', name: 'Ollama', baseUrl: '', model: 'x', needsKey: false },
        { id: 'local', name: 'Local model', baseUrl: '', model: 'tiny', needsKey: false },
        { id: 'deepseek', name: 'DeepSeek', baseUrl: 'https://api.deepseek.com', model: 'x', needsKey: true },
      ].map((p) => ({ ...p, active: p.id === effective }))
    if (route === 'models.import') return { id: 'tiny' }
    if (route === 'models.use') return { providerId: 'local', model: 'tiny' }
    if (route === 'settings.update') return settings
    throw new Error(`unexpected route ${route}`)
  })
  render(
    <BureauProvider client={bureau}>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <FirstRunGuide settings={settings} compact={compact} />
      </QueryClientProvider>
    </BureauProvider>,
  )
}

describe('first-run guide', () => {
  afterEach(() => {
    cleanup()
    invoke.mockReset()
  })

  it('when the active provider fails: three paths side by side with the smallest model’s size, Ollama not detected with the hint, and the cloud presets', async () => {
    setup()
    expect(await screen.findByRole('heading', { name: 'No model is set up yet' })).toBeTruthy()
    expect(screen.getByText(/could not reach Ollama: Cannot reach Ollama/)).toBeTruthy()
    expect(await screen.findByRole('button', { name: 'Download Small (1.7 GB)' })).toBeTruthy()
    expect(await screen.findByText('About 4 words per second on this computer (estimate).')).toBeTruthy()
    expect(await screen.findByText(/ollama.com\/download/)).toBeTruthy()
    expect(await screen.findByRole('option', { name: 'DeepSeek' })).toBeTruthy()
    expect(
      screen
        .getAllByRole('region')
        .map((r) => r.getAttribute('aria-label'))
        .filter(Boolean),
    ).toEqual(['Download a local model', 'Use Ollama', 'Enter a cloud key'])
  })

  it('importing a model uses it, tests it live, and remembers the choice and that a provider works', async () => {
    setup()
    const input = await screen.findByLabelText(/Or use a .gguf file you have/)
    fireEvent.change(input, { target: { files: [new File([new Uint8Array(8)], 'tiny.gguf')] } })
    await waitFor(() => expect(screen.getByText(/Connected · tiny/)).toBeTruthy())
    expect(invoke).toHaveBeenCalledWith('models.use', { id: 'tiny' })
    expect(invoke).toHaveBeenCalledWith('settings.update', { ui: { setupChoice: 'local' } })
    expect(invoke).toHaveBeenCalledWith('settings.update', {
      ui: { providerWorked: true, setupChoice: 'local' },
    })
  })

  it('opens with the path chosen before marked, so a half-finished setup picks up where it was', async () => {
    setup({ setupChoice: 'ollama' })
    const ollama = await screen.findByRole('region', { name: 'Use Ollama' })
    expect(ollama.classList.contains('chosen')).toBe(true)
    expect(screen.getByRole('region', { name: 'Download a local model' }).classList.contains('chosen')).toBe(
      false,
    )
  })

  it('tests the effective provider (an environment override wins over settings.json), not the saved one', async () => {
    // settings.json says ollama; providers.list marks the environment's choice (local) active, and it works.
    setup({}, 'local')
    await waitFor(() =>
      expect(invoke).toHaveBeenCalledWith('settings.update', { ui: { providerWorked: true } }),
    )
    expect(invoke).toHaveBeenCalledWith('providers.test', { id: 'local' })
    expect(invoke).not.toHaveBeenCalledWith('providers.test', { id: 'ollama' })
    expect(screen.queryByRole('heading', { name: 'No model is set up yet' })).toBeNull()
  })

  it('a cloud key is tested with the base URL on screen first; a failed test saves nothing and makes nothing active', async () => {
    setup()
    const cloud = await screen.findByRole('region', { name: 'Enter a cloud key' })
    const url = await waitFor(() => {
      const field = screen.getByLabelText('Base URL') as HTMLInputElement
      expect(field.value).toBe('https://api.deepseek.com')
      return field
    })
    fireEvent.change(url, { target: { value: 'api.example' } })
    expect(screen.getByText('Enter a URL that starts with http:// or https://.')).toBeTruthy()
    fireEvent.change(url, { target: { value: 'https://gateway.example/v1' } })
    fireEvent.change(screen.getByLabelText('API key'), { target: { value: 'sk-bad' } })
    fireEvent.click(screen.getByRole('button', { name: 'Test and save' }))
    await waitFor(() =>
      expect(cloud.textContent).toContain('DeepSeek refused the API key. Nothing was saved'),
    )
    expect(invoke).toHaveBeenCalledWith('providers.test', {
      id: 'deepseek',
      draft: { apiKey: 'sk-bad', baseUrl: 'https://gateway.example/v1' },
    })
    expect(invoke.mock.calls.filter(([route]) => route === 'settings.setSecret')).toEqual([])
    expect(
      invoke.mock.calls.filter(([route, input]) => route === 'settings.update' && 'provider' in input),
    ).toEqual([])

    fireEvent.change(screen.getByLabelText('API key'), { target: { value: 'sk-good' } })
    fireEvent.click(screen.getByRole('button', { name: 'Test and save' }))
    await waitFor(() => expect(cloud.textContent).toContain('Connected · deepseek-chat'))
    expect(invoke).toHaveBeenCalledWith('settings.setSecret', {
      name: 'providers.deepseek.apiKey',
      value: 'sk-good',
    })
    expect(invoke).toHaveBeenCalledWith('settings.update', {
      provider: { active: 'deepseek', model: null },
      providers: { deepseek: { baseUrl: 'https://gateway.example/v1' } },
      ui: { providerWorked: true, setupChoice: 'cloud' },
    })
  })

  it('the .gguf picker says where a full-size model goes, with the size of the smallest one', async () => {
    setup()
    const input = await screen.findByLabelText('Or use a .gguf file you have')
    const hint = document.getElementById(input.getAttribute('aria-describedby') ?? '')
    await waitFor(() => expect(hint?.textContent).toContain('A full model (1.7 GB or more)'))
    expect(hint?.textContent).toContain('bureau models import model.gguf')
  })

  it('beside a conversation it folds into one line that opens on demand', async () => {
    setup({}, 'ollama', true)
    const open = await screen.findByRole('button', { name: 'Set up a model…' })
    expect(open.getAttribute('aria-expanded')).toBe('false')
    expect(screen.queryByRole('region', { name: 'Download a local model' })).toBeNull()
    fireEvent.click(open)
    expect(await screen.findByRole('region', { name: 'Download a local model' })).toBeTruthy()
    expect(
      screen.getByRole('button', { name: 'Hide the ways to set one up' }).getAttribute('aria-expanded'),
    ).toBe('true')
  })

  it('is never shown once a provider worked, and runs no test', () => {
    setup({ providerWorked: true })
    expect(screen.queryByRole('heading', { name: 'No model is set up yet' })).toBeNull()
    expect(invoke).not.toHaveBeenCalled()
  })
})
