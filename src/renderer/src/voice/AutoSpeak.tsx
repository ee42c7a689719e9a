import { useEffect, useRef } from 'react'
import type { PublicSettings } from '../../../shared/settings'
import { useBureau } from '../ipc/BureauProvider'
import { useSettings } from '../settings/useSettings'
import { AudioPlayback } from './audioPlayback'
import { createChatSpeaker } from './chatSpeaker'
import { savedSpeechOutput } from './speechOutputs'

/**
 * Speaks chat answers as they stream while the `voice.autoSpeak` setting is on (loaded only then).
 * Each run takes the speech settings of its start, so saving other settings does not cut it off.
 */
export default function AutoSpeak() {
  const bureau = useBureau()
  const settings = useRef<PublicSettings | undefined>(undefined)
  settings.current = useSettings().data
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
  }, [bureau])
  return null
}
