// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, cleanup, render, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { defaultSettings, PublicSettings } from '../../../src/shared/settings'

const invoke = vi.hoisted(() => vi.fn())
const listeners = vi.hoisted(() => new Map<string, Set<(event: unknown) => void>>())
const on = vi.hoisted(() =>
  vi.fn((event: string, listener: (payload: unknown) => void) => {
    const set = listeners.get(event) ?? new Set()
    listeners.set(event, set)
    set.add(listener)
    return () => set.delete(listener)
  }),
)
vi.mock('../../../src/renderer/src/ipc/bureauClient', () => ({ bureau: { invoke, on } }))

const { default: AutoSpeak } = await import('../../../src/renderer/src/voice/AutoSpeak')
const { SETTINGS_KEY } = await import('../../../src/renderer/src/settings/useSettings')

const settingsWith = (voice: object, theme: 'light' | 'dark' = 'light') =>
  PublicSettings.parse({
    ...defaultSettings(),
    voice: { autoSpeak: true, ...voice },
    ui: { ...defaultSettings().ui, theme },
    secrets: {},
    secretStorage: { kind: 'key-file', secure: true },
  })

const emit = (event: string, payload: unknown) => {
  for (const listener of listeners.get(event) ?? []) listener(payload)
}

describe('AutoSpeak', () => {
  afterEach(() => {
    cleanup()
    invoke.mockReset()
    on.mockClear()
    listeners.clear()
  })

  it('keeps listening across settings changes, and each run speaks with the engine saved at its start', async () => {
    invoke.mockImplementation(async () => new Promise(() => {}))
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } })
    client.setQueryData(SETTINGS_KEY, settingsWith({ tts: { engine: 'espeak-ng' } }))
    render(
      <QueryClientProvider client={client}>
        <AutoSpeak />
      </QueryClientProvider>,
    )
    await waitFor(() => expect(listeners.get('chat.delta')?.size).toBe(1))

    await act(async () => {
      client.setQueryData(SETTINGS_KEY, settingsWith({ tts: { engine: 'openai' } }, 'dark'))
      // The query cache tells its observers in a setTimeout(0) batch.
      await new Promise((resolve) => setTimeout(resolve, 0))
    })
    expect(on.mock.calls.filter(([event]) => event === 'chat.delta')).toHaveLength(1)

    act(() => {
      emit('chat.delta', { runId: 'r1', text: 'The first sentence is here.' })
      emit('agent.done', { runId: 'r1' })
    })
    await waitFor(() =>
      expect(invoke).toHaveBeenCalledWith('voice.synthesize', {
        text: 'The first sentence is here.',
        engine: 'openai',
      }),
    )
  })
})
