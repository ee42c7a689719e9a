// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { TalkOffline } from '../../../src/renderer/src/firstRun/TalkOffline'
import { BureauProvider } from '../../../src/renderer/src/ipc/BureauProvider'
import { SpeechModels } from '../../../src/renderer/src/voice/SpeechModels'
import type { SpeechModelProgress, SpeechModelSummary } from '../../../src/shared/ipc'
import { defaultSettings, PublicSettings } from '../../../src/shared/settings'
import { fakeBureau } from '../../support/fakeBureau'

const model = (over: Partial<SpeechModelSummary> & Pick<SpeechModelSummary, 'id'>): SpeechModelSummary => ({
  kind: 'whisper',
  name: over.id,
  language: 'en',
  licence: 'MIT',
  sizeBytes: 77_704_715,
  pinned: false,
  installed: false,
  installedBytes: null,
  partialBytes: 0,
  download: null,
  ...over,
})
const progress = (id: string, over: Partial<SpeechModelProgress> = {}): SpeechModelProgress => ({
  id,
  name: id,
  state: 'downloading',
  receivedBytes: 10_000_000,
  totalBytes: 77_704_715,
  speed: 2_000_000,
  etaSeconds: 34,
  resumedBytes: 0,
  message: null,
  ...over,
})

function mount(children: React.ReactNode, list: () => SpeechModelSummary[]) {
  const bureau = fakeBureau({
    'voice.models': list,
    'voice.models.pull': ({ id }) => progress(id),
    'voice.models.cancel': () => ({ cancelled: true }),
    'voice.models.remove': ({ id }) => model({ id }),
    'settings.update': () =>
      PublicSettings.parse({
        ...defaultSettings(),
        secrets: {},
        secretStorage: { kind: 'key-file', secure: true },
      }),
  })
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  })
  render(
    <BureauProvider client={bureau}>
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </BureauProvider>,
  )
  return bureau
}

afterEach(cleanup)

describe('Settings → Voice speech models', () => {
  it('lists size, language and licence; downloads with live progress; cancel; resume names the kept bytes', async () => {
    let listed = [
      model({ id: 'whisper-tiny.en', name: 'Whisper tiny (English)' }),
      model({
        id: 'piper-de',
        kind: 'piper',
        name: 'Piper de',
        language: 'de',
        licence: 'CC0-1.0',
        sizeBytes: 63_201_294,
      }),
    ]
    const bureau = mount(<SpeechModels />, () => listed)
    const row = await screen.findByRole('listitem', { name: 'Whisper tiny (English)' })
    expect(row.textContent).toMatch(/74 MB · English · MIT/)
    expect(screen.getByRole('listitem', { name: 'Piper de' }).textContent).toMatch(/German · CC0-1\.0/)
    fireEvent.click(within(row).getByRole('button', { name: /Download Whisper tiny/ }))
    await waitFor(() => expect(bureau.callsTo('voice.models.pull')).toEqual([{ id: 'whisper-tiny.en' }]))
    act(() =>
      bureau.emit('voice.modelProgress', progress('whisper-tiny.en', { name: 'Whisper tiny (English)' })),
    )
    const bar = await within(row).findByRole('progressbar', { name: 'Downloading Whisper tiny (English)' })
    expect(bar.getAttribute('value')).toBe('10000000')
    fireEvent.click(within(row).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(bureau.callsTo('voice.models.cancel')).toEqual([{ id: 'whisper-tiny.en' }]))
    listed = [
      model({ id: 'whisper-tiny.en', name: 'Whisper tiny (English)', partialBytes: 10_000_000 }),
      listed[1]!,
    ]
    act(() =>
      bureau.emit(
        'voice.modelProgress',
        progress('whisper-tiny.en', { state: 'cancelled', message: 'Stopped. What arrived is kept.' }),
      ),
    )
    expect(await within(row).findByText('Stopped. What arrived is kept.')).toBeTruthy()
    expect(
      await within(row).findByRole('button', { name: /Resume Whisper tiny \(English\) \(9\.5 MB kept\)/ }),
    ).toBeTruthy()
  })

  it('removes an installed model only after the confirm, and Keep keeps it', async () => {
    const bureau = mount(<SpeechModels />, () => [
      model({ id: 'whisper-base', name: 'Whisper base', installed: true, installedBytes: 147_951_465 }),
    ])
    fireEvent.click(await screen.findByRole('button', { name: 'Remove Whisper base' }))
    const confirm = screen.getByRole('group')
    expect(confirm.textContent).toMatch(/Remove Whisper base \(141 MB\)\?/)
    fireEvent.click(within(confirm).getByRole('button', { name: 'Keep' }))
    expect(bureau.callsTo('voice.models.remove')).toEqual([])
    fireEvent.click(screen.getByRole('button', { name: 'Remove Whisper base' }))
    fireEvent.click(within(screen.getByRole('group')).getByRole('button', { name: 'Remove' }))
    await waitFor(() => expect(bureau.callsTo('voice.models.remove')).toEqual([{ id: 'whisper-base' }]))
  })
})

describe('first-run offer to talk offline', () => {
  const catalogue = (installed: boolean) => [
    model({ id: 'whisper-tiny.en', name: 'Whisper tiny (English)', installed }),
    model({ id: 'whisper-tiny', name: 'Whisper tiny', language: 'multi', installed }),
    model({ id: 'piper-en_US-amy-low', kind: 'piper', name: 'Piper amy', sizeBytes: 63_104_526, installed }),
  ]

  it('offers whisper tiny and a Piper voice with sizes, downloads both, then makes them the Voice engines', async () => {
    let installed = false
    const bureau = mount(<TalkOffline />, () => catalogue(installed))
    const offer = await screen.findByRole('region', { name: 'Talk to Bureau offline' })
    expect(offer.textContent).toMatch(/Whisper tiny \(English\), 74 MB/)
    expect(offer.textContent).toMatch(/Piper amy, 60 MB/)
    fireEvent.click(within(offer).getByRole('button', { name: /Download both \(134 MB\)/ }))
    await waitFor(() =>
      expect(bureau.callsTo('voice.models.pull')).toEqual([
        { id: 'whisper-tiny.en' },
        { id: 'piper-en_US-amy-low' },
      ]),
    )
    installed = true
    act(() => bureau.emit('voice.modelProgress', progress('piper-en_US-amy-low', { state: 'done' })))
    await within(offer).findByText(/Offline voice is ready/)
    expect(bureau.callsTo('settings.update')).toEqual([
      {
        voice: {
          stt: { engine: 'whisper', whisperModel: 'whisper-tiny.en' },
          tts: { engine: 'piper', voice: 'piper-en_US-amy-low' },
        },
      },
    ])
  })

  it('"Not now" hides the offer and downloads nothing', async () => {
    const bureau = mount(<TalkOffline />, () => catalogue(false))
    fireEvent.click(await screen.findByRole('button', { name: 'Not now' }))
    expect(screen.queryByRole('region', { name: 'Talk to Bureau offline' })).toBeNull()
    expect(bureau.callsTo('voice.models.pull')).toEqual([])
  })
})
