// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { BureauProvider } from '../../../src/renderer/src/ipc/BureauProvider'
import type { SpeechModelSummary, VoiceEngines } from '../../../src/shared/ipc'
import { defaultSettings, PublicSettings, type SettingsPatch } from '../../../src/shared/settings'
import { fakeBureau } from '../../support/fakeBureau'

const invoke = vi.hoisted(() => vi.fn())
const bureau = fakeBureau({}, invoke)

const { VoiceSettingsForm } = await import('../../../src/renderer/src/voice/VoiceSettingsForm')
const { SETTINGS_KEY } = await import('../../../src/renderer/src/settings/useSettings')

/** As in the voice panel: the form gets the cached settings, which settings.update replaces. */
function CachedVoiceSettingsForm() {
  const settings = useQuery<PublicSettings>({ queryKey: SETTINGS_KEY, enabled: false }).data
  return settings ? <VoiceSettingsForm settings={settings} /> : null
}

const engines: VoiceEngines = {
  tts: [
    {
      id: 'espeak-ng',
      label: 'eSpeak NG',
      available: true,
      runsIn: 'host',
      voices: [{ id: 'de', name: 'German', language: 'de' }],
    },
    {
      id: 'openai',
      label: 'OpenAI-compatible',
      available: true,
      runsIn: 'host',
      voices: [],
      endpoint: 'api.example.com',
    },
  ],
  stt: [
    {
      id: 'openai',
      label: 'OpenAI-compatible',
      available: false,
      runsIn: 'host',
      voices: [],
      reason: 'Set a key.',
    },
    { id: 'web-speech', label: 'Web Speech', available: false, runsIn: 'window', voices: [] },
  ],
}

let models: SpeechModelSummary[] = []

function setup() {
  const settings = PublicSettings.parse({
    ...defaultSettings(),
    voice: { tts: { engine: 'openai', voice: 'alloy' }, stt: { engine: 'openai' } },
    secrets: { 'voice.tts.apiKey': { set: true, hint: 'sk-…abcd' } },
    secretStorage: { kind: 'key-file', secure: true },
  })
  invoke.mockImplementation(async (route: string, patch?: SettingsPatch) => {
    if (route === 'voice.engines') return engines
    if (route === 'voice.models') return models
    if (route === 'settings.update') return PublicSettings.parse({ ...settings, ...patch })
    throw new Error(`unexpected route ${route}`)
  })
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  })
  client.setQueryData(SETTINGS_KEY, settings)
  render(
    <BureauProvider client={bureau}>
      <QueryClientProvider client={client}>
        <CachedVoiceSettingsForm />
      </QueryClientProvider>
    </BureauProvider>,
  )
  const [speech, listening] = screen.getAllByRole('group')
  if (!speech || !listening) throw new Error('the two fieldsets are missing')
  return { speech: within(speech), listening: within(listening) }
}

describe('VoiceSettingsForm', () => {
  afterEach(() => {
    cleanup()
    invoke.mockReset()
    models = []
    engines.stt = engines.stt.filter((e) => e.id !== 'whisper' && e.id !== 'pocketsphinx')
  })

  it('lists every engine with its state and the exact install command; a whisper model can be chosen', async () => {
    engines.stt = [
      {
        id: 'whisper',
        label: 'whisper.cpp (offline)',
        available: true,
        state: 'ready',
        runsIn: 'host',
        voices: [],
      },
      {
        id: 'pocketsphinx',
        label: 'PocketSphinx',
        available: false,
        state: 'needs-install',
        reason: 'Install it: `sudo apt install pocketsphinx pocketsphinx-en-us`',
        runsIn: 'host',
        voices: [],
      },
      ...engines.stt,
    ]
    models = [
      {
        id: 'whisper-base.en',
        kind: 'whisper',
        name: 'Whisper base (English)',
        language: 'en',
        licence: 'MIT',
        sizeBytes: 147_964_211,
        pinned: false,
        installed: true,
        installedBytes: 147_964_211,
        partialBytes: 0,
        download: null,
      },
    ]
    const { listening } = setup()
    const states = await listening.findByRole('list', { name: 'Recognition engines' })
    await waitFor(() => expect(within(states).getAllByRole('listitem')).toHaveLength(4))
    const sphinx = within(states).getByText('PocketSphinx').closest('li') as HTMLElement
    expect(within(sphinx).getByText('Needs an install')).toBeTruthy()
    expect(sphinx.querySelector('code')?.textContent).toBe('sudo apt install pocketsphinx pocketsphinx-en-us')
    fireEvent.change(listening.getByRole('combobox', { name: 'Engine' }), { target: { value: 'whisper' } })
    const model = (await listening.findByRole('combobox', { name: 'Whisper model' })) as HTMLSelectElement
    fireEvent.change(model, { target: { value: 'whisper-base.en' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    await screen.findByText('Saved')
    expect(invoke).toHaveBeenCalledWith(
      'settings.update',
      expect.objectContaining({
        voice: expect.objectContaining({
          stt: expect.objectContaining({ engine: 'whisper', whisperModel: 'whisper-base.en' }),
        }),
      }),
    )
  })

  it('lists the engines the host reports, marking the unavailable ones, with the service fields of openai', async () => {
    const { speech, listening } = setup()
    await waitFor(() => expect(speech.getAllByRole('option').length).toBeGreaterThan(1))
    const ttsOptions = within(speech.getByRole('combobox', { name: 'Engine' })).getAllByRole('option')
    expect(ttsOptions.map((o) => o.textContent)).toEqual(['eSpeak NG', 'OpenAI-compatible'])
    const sttOptions = within(listening.getByRole('combobox', { name: 'Engine' })).getAllByRole('option')
    expect(sttOptions.map((o) => o.textContent)).toEqual([
      'OpenAI-compatible — not available here',
      'Web Speech — not available here',
    ])
    expect(speech.getByText('Audio is sent to api.example.com.')).toBeTruthy()
    // In the list of engines and under the chosen one.
    expect(listening.getAllByText('Set a key.')).toHaveLength(2)
    expect(speech.getByRole('textbox', { name: 'Speech service URL' })).toBeTruthy()
    expect(speech.getByRole('textbox', { name: 'Speech model' })).toBeTruthy()
    expect(speech.getByText('Speech API key')).toBeTruthy()
    expect(listening.getByRole('textbox', { name: 'Transcription service URL' })).toBeTruthy()
    expect(listening.getByRole('textbox', { name: 'Transcription model' })).toBeTruthy()
    expect(listening.getByText('Transcription API key')).toBeTruthy()
  })

  it('saves every field of both directions as one settings.update and says Saved', async () => {
    const { speech, listening } = setup()
    const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement
    expect(save.disabled).toBe(true)
    fireEvent.change(speech.getByRole('textbox', { name: 'Speech service URL' }), {
      target: { value: ' http://127.0.0.1:8000/v1 ' },
    })
    fireEvent.change(listening.getByRole('textbox', { name: 'Transcription model' }), {
      target: { value: 'whisper-large' },
    })
    fireEvent.change(listening.getByRole('textbox', { name: 'Language' }), { target: { value: 'de' } })
    expect(save.disabled).toBe(false)
    fireEvent.click(save)
    await screen.findByText('Saved')
    expect(invoke).toHaveBeenCalledWith('settings.update', {
      voice: {
        tts: { engine: 'openai', voice: 'alloy', rate: 1, baseUrl: 'http://127.0.0.1:8000/v1', model: null },
        stt: { engine: 'openai', whisperModel: null, language: 'de', baseUrl: null, model: 'whisper-large' },
        autoSpeak: false,
        vad: { thresholdDb: -45, silenceMs: 1500 },
      },
    })
  })

  it("switching the speech engine hides the service fields, clears the voice and offers the engine's voices", async () => {
    const { speech } = setup()
    await waitFor(() => expect(speech.getAllByRole('option').length).toBeGreaterThan(1))
    fireEvent.change(speech.getByRole('combobox', { name: 'Engine' }), { target: { value: 'espeak-ng' } })
    expect(speech.queryByRole('textbox', { name: 'Speech service URL' })).toBeNull()
    const voice = speech.getByRole('combobox', { name: 'Voice' }) as HTMLSelectElement
    expect(voice.value).toBe('')
    expect(
      within(voice)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Default', 'German'])
  })
})
