// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { BureauProvider } from '../../../src/renderer/src/ipc/BureauProvider'
import { defaultSettings, PublicSettings } from '../../../src/shared/settings'
import { fakeBureau } from '../../support/fakeBureau'

// Ollama's installed models in a dropdown, and no "Not set" for a provider without keys.
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

describe('Saving what was typed', () => {
  afterEach(() => {
    cleanup()
    invoke.mockReset()
  })

  const saved = PublicSettings.parse({
    ...defaultSettings(),
    provider: { active: 'openai' },
    providers: { openai: { baseUrl: 'http://127.0.0.1:8499/v1', model: 'fake' } },
    secrets: {},
    secretStorage: { kind: 'key-file', secure: true },
  })
  const openai = {
    ...ollamaProvider,
    id: 'openai',
    name: 'OpenAI',
    kind: 'openai-compatible',
    baseUrl: 'http://127.0.0.1:8499/v1',
    model: 'fake',
    contextWindow: 1_047_576,
    needsKey: true,
    apiKeyEnv: 'OPENAI_API_KEY',
    preset: { baseUrl: 'https://api.openai.com/v1', model: 'gpt-4.1', contextWindow: 1_047_576 },
    removable: false,
  }

  function renderOpenAi() {
    invoke.mockImplementation(async (route: string, input: unknown) => {
      if (route === 'providers.list') return [openai]
      if (route === 'providers.listModels') return { id: 'openai', models: ['fake', 'other'], error: null }
      if (route === 'settings.setSecret')
        return {
          ...saved,
          secrets: { [(input as { name: string }).name]: { set: true, source: 'store', hint: 'sk-…1234' } },
        }
      if (route === 'settings.update') return saved
      throw new Error(`unexpected route ${route}`)
    })
    render(
      <BureauProvider client={bureau}>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <ProviderSection settings={saved} />
        </QueryClientProvider>
      </BureauProvider>,
    )
  }

  it('the main Save stores a key typed and not saved with "Save key", then the settings', async () => {
    renderOpenAi()
    fireEvent.click(await screen.findByRole('button', { name: 'Enter key' }))
    fireEvent.change(screen.getByLabelText('New api key'), { target: { value: ' sk-typed-1234 ' } })
    const listsBefore = invoke.mock.calls.filter(([route]) => route === 'providers.list').length
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(invoke.mock.calls.map(([route]) => route)).toContain('settings.update'))
    const routes = invoke.mock.calls.map(([route]) => route)
    expect(routes.indexOf('settings.setSecret')).toBeGreaterThan(-1)
    expect(routes.indexOf('settings.setSecret')).toBeLessThan(routes.indexOf('settings.update'))
    expect(invoke).toHaveBeenCalledWith('settings.setSecret', {
      name: 'providers.openai.apiKey',
      value: 'sk-typed-1234',
    })
    // "In use" is read again after saving, not at the next reload.
    await waitFor(() =>
      expect(invoke.mock.calls.filter(([route]) => route === 'providers.list').length).toBeGreaterThan(
        listsBefore,
      ),
    )
    await waitFor(() => expect(screen.queryByLabelText('New api key')).toBeNull())
  })

  it("labels the preset's own values as the preset, never the saved ones, and lists the server's models", async () => {
    renderOpenAi()
    expect(await screen.findByText('Preset: https://api.openai.com/v1')).toBeTruthy()
    expect(screen.queryByText('Preset: http://127.0.0.1:8499/v1')).toBeNull()
    expect(screen.queryByText(/Preset: fake/)).toBeNull()
    expect(screen.queryByText('Preset: 1,047,576')).toBeNull()
    expect(screen.getByText(/The preset's window is for api\.openai\.com/)).toBeTruthy()
    await waitFor(() => expect(screen.getByText(/2 models listed by the server/)).toBeTruthy())
    const model = screen.getByRole('combobox', { name: 'Model' })
    expect(model.getAttribute('list')).toBe('provider-models')
    const options = [...document.querySelectorAll('#provider-models option')].map((o) =>
      o.getAttribute('value'),
    )
    expect(options).toEqual(['fake', 'other'])
  })

  it('shows a wrong base URL while typing, clears it when fixed, and focuses it on Save', async () => {
    renderOpenAi()
    const url = await screen.findByRole('textbox', { name: 'Base URL' })
    fireEvent.change(url, { target: { value: 'localhost:1234' } })
    const window = screen.getByRole('textbox', { name: 'Context window (tokens)' })
    fireEvent.change(window, { target: { value: '12.5' } })
    expect(screen.getByText('The base URL starts with http:// or https://.')).toBeTruthy()
    expect(screen.getByText('The context window is a whole number of tokens, at least 512.')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(document.activeElement).toBe(url))
    expect(invoke.mock.calls.map(([route]) => route)).not.toContain('settings.update')
    fireEvent.change(url, { target: { value: 'http://localhost:1234/v1' } })
    expect(screen.queryByText('The base URL starts with http:// or https://.')).toBeNull()
    expect(url.getAttribute('aria-invalid')).toBeNull()
  })
})

describe('Adding an OpenAI-compatible provider', () => {
  afterEach(() => {
    cleanup()
    invoke.mockReset()
  })

  it('shows every error at once, focuses the first, then adds the provider, stores its key and uses it', async () => {
    const added = {
      ...ollamaProvider,
      id: 'lm-studio',
      name: 'LM Studio',
      kind: 'openai-compatible',
      preset: null,
      removable: true,
    }
    invoke.mockImplementation(async (route: string) => {
      if (route === 'providers.list') return [ollamaProvider]
      if (route === 'ollama.status') return { url: '', running: false, models: [], error: 'no', hint: null }
      if (route === 'providers.listModels') return { id: '', models: ['qwen2.5-7b-instruct'], error: null }
      if (route === 'providers.saveCustom') return added
      if (route === 'settings.setSecret' || route === 'settings.update') return settings
      throw new Error(`unexpected route ${route}`)
    })
    render(
      <BureauProvider client={bureau}>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <ProviderSection settings={settings} />
        </QueryClientProvider>
      </BureauProvider>,
    )
    fireEvent.click(await screen.findByRole('button', { name: 'Add an OpenAI-compatible provider…' }))
    const group = screen.getByRole('group', { name: 'Add an OpenAI-compatible provider' })
    fireEvent.change(within(group).getByRole('textbox', { name: 'Base URL' }), { target: { value: 'nope' } })
    fireEvent.click(within(group).getByRole('button', { name: 'Add and use' }))
    expect(within(group).getByText('Enter a name.')).toBeTruthy()
    expect(within(group).getByText('Enter a URL that starts with http:// or https://.')).toBeTruthy()
    expect(within(group).getByText('Enter a model name.')).toBeTruthy()
    expect(document.activeElement).toBe(within(group).getByRole('textbox', { name: 'Name' }))
    expect(invoke.mock.calls.map(([route]) => route)).not.toContain('providers.saveCustom')

    fireEvent.change(within(group).getByRole('textbox', { name: 'Name' }), { target: { value: 'LM Studio' } })
    fireEvent.change(within(group).getByRole('textbox', { name: 'Base URL' }), {
      target: { value: 'http://127.0.0.1:1234/v1' },
    })
    fireEvent.change(within(group).getByLabelText('API key (optional)'), { target: { value: 'sk-lm' } })
    fireEvent.click(within(group).getByRole('button', { name: 'Load models' }))
    await waitFor(() => expect(within(group).getByText(/1 models listed by the server/)).toBeTruthy())
    expect(invoke).toHaveBeenCalledWith('providers.listModels', {
      draft: { baseUrl: 'http://127.0.0.1:1234/v1', apiKey: 'sk-lm' },
    })
    fireEvent.change(within(group).getByRole('combobox', { name: 'Model' }), {
      target: { value: 'qwen2.5-7b-instruct' },
    })
    fireEvent.click(within(group).getByRole('button', { name: 'Add and use' }))
    await waitFor(() =>
      expect(invoke).toHaveBeenCalledWith('settings.update', { provider: { active: 'lm-studio' } }),
    )
    expect(invoke).toHaveBeenCalledWith('providers.saveCustom', {
      name: 'LM Studio',
      baseUrl: 'http://127.0.0.1:1234/v1',
      model: 'qwen2.5-7b-instruct',
    })
    expect(invoke).toHaveBeenCalledWith('settings.setSecret', {
      name: 'providers.lm-studio.apiKey',
      value: 'sk-lm',
    })
  })
})
