// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { BureauProvider } from '../../../src/renderer/src/ipc/BureauProvider'
import { defaultSettings, PublicSettings } from '../../../src/shared/settings'
import { fakeBureau } from '../../support/fakeBureau'

// Issue 18 item 3: Ollama's installed models in a dropdown, and no "Not set" for a provider without keys.
const invoke = vi.hoisted(() => vi.fn())
const bureau = fakeBureau({}, invoke)

const { ProviderSection } = await import('../../../src/renderer/src/settings/sections/ProviderSection')

const settings = PublicSettings.parse({
  ...defaultSettings(),
  provider: { active: 'ollama' },
  secrets: {},
  secretStorage: { kind: 'key-file', secure: true },
})
const ollamaProvider = {
  id: 'ollama',
  name: 'Ollama',
  kind: 'ollama',
  baseUrl: 'http://127.0.0.1:11434',
  model: 'qwen3:4b',
  contextWindow: null,
  interactionMode: 'cli',
  interactionModeSource: 'auto',
  cacheType: 'prefix',
  supportsTools: true,
  supportsVision: false,
  apiKeyEnv: null,
  keySet: false,
  needsKey: false,
  active: true,
  activeSource: 'settings',
}

function setup(status: { running: boolean; models: { name: string; sizeBytes: number | null }[] }) {
  invoke.mockImplementation(async (route: string) => {
    if (route === 'providers.list') return [ollamaProvider]
    if (route === 'ollama.pull') return { started: true }
    if (route === 'ollama.status')
      return {
        url: 'http://127.0.0.1:11434',
        error: status.running ? null : 'connection refused',
        hint: status.running ? null : 'Install Ollama from https://ollama.com and start it.',
        ...status,
      }
    throw new Error(`unexpected route ${route}`)
  })
  render(
    <BureauProvider client={bureau}>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <ProviderSection settings={settings} />
      </QueryClientProvider>
    </BureauProvider>,
  )
}

describe('Model provider settings for Ollama', () => {
  afterEach(() => {
    cleanup()
    invoke.mockReset()
  })

  it('lists the installed Ollama models in a dropdown and asks for no API key', async () => {
    setup({
      running: true,
      models: [
        { name: 'llama3.2:3b', sizeBytes: 2_000_000_000 },
        { name: 'qwen3:4b', sizeBytes: 2_500_000_000 },
      ],
    })
    const model = await screen.findByRole('combobox', { name: 'Model' })
    const options = within(model)
      .getAllByRole('option')
      .map((o) => o.textContent)
    expect(options).toEqual(['Preset (qwen3:4b)', 'llama3.2:3b', 'qwen3:4b'])
    expect(screen.getByText('Ollama needs no API key.')).toBeTruthy()
    expect(screen.queryByText('Not set')).toBeNull()
  })

  it('when Ollama does not answer: a free-text model field and the install hint', async () => {
    setup({ running: false, models: [] })
    await waitFor(() =>
      expect(screen.getByText(/Ollama is not running at http:\/\/127\.0\.0\.1:11434/)).toBeTruthy(),
    )
    expect(screen.getByText(/Install Ollama from https:\/\/ollama\.com/)).toBeTruthy()
    expect(screen.getByRole('textbox', { name: 'Model' })).toBeTruthy()
    expect(screen.queryByText('Not set')).toBeNull()
  })

  it('pulls a model through Ollama and shows its progress, then refreshes the model list', async () => {
    setup({ running: true, models: [{ name: 'qwen3:4b', sizeBytes: null }] })
    fireEvent.change(await screen.findByRole('textbox', { name: 'Pull a model through Ollama' }), {
      target: { value: 'llama3.2:3b' },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Pull' }))
    await waitFor(() => expect(invoke).toHaveBeenCalledWith('ollama.pull', { model: 'llama3.2:3b' }))
    const statusCalls = () => invoke.mock.calls.filter(([route]) => route === 'ollama.status').length
    const before = statusCalls()
    const event = { model: 'llama3.2:3b', completedBytes: null, totalBytes: null, message: null }
    act(() =>
      bureau.emit('ollama.progress', {
        ...event,
        state: 'pulling',
        status: 'pulling 6a0746a1ec1a',
        completedBytes: 512 * 1024 * 1024,
        totalBytes: 2048 * 1024 * 1024,
      }),
    )
    expect(screen.getByText(/pulling 6a0746a1ec1a: 25% \(512 MB of 2\.0 GB\)/)).toBeTruthy()
    expect((screen.getByRole('button', { name: 'Pull' }) as HTMLButtonElement).disabled).toBe(true)
    act(() => bureau.emit('ollama.progress', { ...event, state: 'done', status: 'success' }))
    expect(screen.getByText('llama3.2:3b is installed in Ollama.')).toBeTruthy()
    await waitFor(() => expect(statusCalls()).toBeGreaterThan(before))
  })
})

describe('Test connection before saving', () => {
  afterEach(() => {
    cleanup()
    invoke.mockReset()
  })

  it('tests the base URL, model and key on screen, unsaved, and saves nothing', async () => {
    const cloud = { ...ollamaProvider, id: 'deepseek', name: 'DeepSeek', kind: 'openai', needsKey: true }
    invoke.mockImplementation(async (route: string) => {
      if (route === 'providers.list') return [cloud]
      if (route === 'providers.test')
        return { id: 'deepseek', ok: true, latencyMs: 12, model: 'typed-model', reply: 'OK', error: null }
      throw new Error(`unexpected route ${route}`)
    })
    render(
      <BureauProvider client={bureau}>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <ProviderSection
            settings={{ ...settings, provider: { ...settings.provider, active: 'deepseek' } }}
          />
        </QueryClientProvider>
      </BureauProvider>,
    )
    fireEvent.change(await screen.findByRole('textbox', { name: 'Base URL' }), {
      target: { value: 'https://llm.example/v1' },
    })
    fireEvent.change(screen.getByRole('textbox', { name: 'Model' }), { target: { value: 'typed-model' } })
    fireEvent.click(screen.getByRole('button', { name: 'Enter key' }))
    fireEvent.change(screen.getByLabelText('New api key'), { target: { value: ' sk-typed ' } })
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }))
    await waitFor(() => expect(screen.getByText(/Connected in 12 ms · typed-model/)).toBeTruthy())
    expect(invoke).toHaveBeenCalledWith('providers.test', {
      id: 'deepseek',
      draft: { baseUrl: 'https://llm.example/v1', model: 'typed-model', apiKey: 'sk-typed' },
    })
    expect(invoke.mock.calls.map(([route]) => route)).not.toContain('settings.setSecret')
    expect(invoke.mock.calls.map(([route]) => route)).not.toContain('settings.update')
  })
})
