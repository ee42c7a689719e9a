import { useEffect } from 'react'
import { bureau } from '../ipc/bureauClient'
import { useSettings } from '../settings/useSettings'
import { AudioPlayback } from './audioPlayback'
import { createChatSpeaker } from './chatSpeaker'
import { hostSpeech, systemSpeech } from './speechOutputs'

/** Speaks chat answers as they stream while the `voice.autoSpeak` setting is on (loaded only then). */
export default function AutoSpeak() {
  const settings = useSettings().data
  const tts = settings?.voice.tts
  useEffect(() => {
    if (!tts) return
    const playback = new AudioPlayback()
    const speaker = createChatSpeaker(
      {
        onDelta: (listener) => bureau.on('chat.delta', listener),
        onDone: (listener) => bureau.on('agent.done', listener),
      },
      () =>
        tts.engine === 'web-speech'
          ? systemSpeech({ voice: tts.voice, rate: tts.rate })
          : hostSpeech(bureau, playback, tts.engine),
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
  }, [tts])
  return null
}
