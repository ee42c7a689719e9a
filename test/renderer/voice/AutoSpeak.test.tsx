// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, cleanup, render, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { BureauProvider } from '../../../src/renderer/src/ipc/BureauProvider'
import { defaultSettings, PublicSettings } from '../../../src/shared/settings'
import { fakeBureau } from '../../support/fakeBureau'

const invoke = vi.hoisted(() => vi.fn())
const bureau = fakeBureau({}, invoke)

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

describe('AutoSpeak', () => {
  afterEach(() => {
    cleanup()
    invoke.mockReset()
    bureau.subscriptions.length = 0
  })

  it('keeps listening across settings changes, and each run speaks with the engine saved at its start', async () => {
    invoke.mockImplementation(async () => new Promise(() => {}))
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } })
    client.setQueryData(SETTINGS_KEY, settingsWith({ tts: { engine: 'espeak-ng' } }))
    render(
      <BureauProvider client={bureau}>
        <QueryClientProvider client={client}>
          <AutoSpeak />
        </QueryClientProvider>
      </BureauProvider>,
    )
    await waitFor(() => expect(bureau.listenerCount('chat.delta')).toBe(1))

    await act(async () => {
      client.setQueryData(SETTINGS_KEY, settingsWith({ tts: { engine: 'openai' } }, 'dark'))
      // The query cache tells its observers in a setTimeout(0) batch.
      await new Promise((resolve) => setTimeout(resolve, 0))
    })
    expect(bureau.subscriptions.filter((event) => event === 'chat.delta')).toHaveLength(1)

    act(() => {
      const run = { runId: 'r1', conversationId: 'c1', messageId: 'm1' }
      bureau.emit('chat.delta', { ...run, text: 'The first sentence is here.' })
      bureau.emit('agent.done', {
        ...run,
        message: {
          id: 'm1',
          role: 'assistant',
          text: 'The first sentence is here.',
          createdAt: new Date(0).toISOString(),
          status: 'done',
          attachments: [],
          steps: [],
          files: [],
        },
      })
    })
    await waitFor(() =>
      expect(invoke).toHaveBeenCalledWith('voice.synthesize', {
        text: 'The first sentence is here.',
        engine: 'openai',
      }),
    )
  })
})
