import { useQuery, useQueryClient } from '@tanstack/react-query'
import { type RefObject, useCallback, useEffect, useMemo, useState } from 'react'
import type { SpeechModelProgress, SpeechModelSummary } from '../../../shared/ipc'
import type { PublicSettings } from '../../../shared/settings'
import { useBureau } from '../ipc/BureauProvider'
import { queryKeys } from '../ipc/queryKeys'
import { AudioPlayback } from './audioPlayback'
import { createChatSpeaker } from './chatSpeaker'
import { savedSpeechOutput } from './speechOutputs'

/** The host's TTS and STT engines with their state (ready, needs a download or an install, why not). */
export function useHostVoiceEngines() {
  const bureau = useBureau()
  return useQuery({
    queryKey: queryKeys.voice.engines(),
    queryFn: () => bureau.invoke('voice.engines'),
    retry: false,
  })
}

/**
 * The speech-model catalogue with what is installed, each model's download live from
 * `voice.modelProgress`; a download's end refreshes the list and the engines (a model makes one ready).
 */
export function useSpeechModels(): {
  models: SpeechModelSummary[]
  error: Error | null
  isPending: boolean
} {
  const bureau = useBureau()
  const client = useQueryClient()
  const list = useQuery({
    queryKey: queryKeys.voice.models(),
    queryFn: () => bureau.invoke('voice.models'),
    retry: false,
  })
  const [live, setLive] = useState(new Map<string, SpeechModelProgress>())
  useEffect(
    () =>
      bureau.on('voice.modelProgress', (progress) => {
        setLive((map) => new Map(map).set(progress.id, progress))
        if (progress.state !== 'downloading')
          void client.invalidateQueries({ queryKey: queryKeys.voice.all() })
      }),
    [bureau, client],
  )
  const models = useMemo(
    () =>
      (list.data ?? []).map((m) => {
        const progress = live.get(m.id)
        // The newer of the listed download and the live one (a list fetched mid-download lags).
        if (
          !progress ||
          (m.download && m.download.state !== 'downloading' && progress.state === 'downloading')
        )
          return m
        return { ...m, download: progress }
      }),
    [list.data, live],
  )
  return { models, error: list.error, isPending: list.isPending }
}

/** Download, cancel and remove a speech model; each refreshes the list and the engines. */
export function useSpeechModelActions() {
  const bureau = useBureau()
  const client = useQueryClient()
  const refresh = useCallback(() => client.invalidateQueries({ queryKey: queryKeys.voice.all() }), [client])
  return useMemo(
    () => ({
      pull: async (id: string) => {
        const progress = await bureau.invoke('voice.models.pull', { id })
        await refresh()
        return progress
      },
      cancel: async (id: string) => bureau.invoke('voice.models.cancel', { id }),
      remove: async (id: string) => {
        const summary = await bureau.invoke('voice.models.remove', { id })
        await refresh()
        return summary
      },
    }),
    [bureau, refresh],
  )
}

/** The text recognised so far for one transcription request, from `voice.partial` events. */
export function usePartialTranscripts(): { partial: string; requestId: string | undefined } {
  const bureau = useBureau()
  const [state, setState] = useState<{ partial: string; requestId: string | undefined }>({
    partial: '',
    requestId: undefined,
  })
  useEffect(
    () =>
      bureau.on('voice.partial', (event) => setState({ partial: event.text, requestId: event.requestId })),
    [bureau],
  )
  return state
}

/**
 * Speaks chat answers as they stream, for as long as the calling component is mounted. Each run takes the
 * speech settings of its start (read from `settings`), so saving other settings does not cut it off.
 */
export function useAutoSpeak(settings: RefObject<PublicSettings | undefined>) {
  const bureau = useBureau()
  useEffect(() => {
    const playback = new AudioPlayback()
    const speaker = createChatSpeaker(
      {
        onDelta: (listener) => bureau.on('chat.delta', listener),
        onDone: (listener) => bureau.on('agent.done', listener),
      },
      () => savedSpeechOutput(bureau, playback, settings.current?.voice.tts),
    )
    // Esc anywhere silences it, as Stop does on the Voice page.
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') speaker.stop()
    }
    window.addEventListener('keydown', onKey)
    return () => {
      window.removeEventListener('keydown', onKey)
      speaker.dispose()
      playback.close()
    }
  }, [bureau, settings])
}
