import { useQuery } from '@tanstack/react-query'
import { type RefObject, useEffect } from 'react'
import type { PublicSettings } from '../../../shared/settings'
import { useBureau } from '../ipc/BureauProvider'
import { queryKeys } from '../ipc/queryKeys'
import { AudioPlayback } from './audioPlayback'
import { createChatSpeaker } from './chatSpeaker'
import { savedSpeechOutput } from './speechOutputs'

/** The speech engines as the host sees them (installed, configured). */
export function useHostVoiceEngines() {
  const bureau = useBureau()
  return useQuery({
    queryKey: queryKeys.voiceEngines(),
    queryFn: () => bureau.invoke('voice.engines'),
    retry: false,
  })
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
