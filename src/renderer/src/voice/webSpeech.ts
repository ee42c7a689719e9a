import type { VoiceOption } from '../../../shared/ipc'
import type { LiveTranscriber } from './voicePorts'

export interface WebSpeechSupport {
  available: boolean
  voices: VoiceOption[]
  reason?: string
}

const isLinux = () => /Linux/.test(navigator.userAgent) && !/Android/.test(navigator.userAgent)

const LINUX_SPEECH_DISPATCHER =
  'No system voices. On Linux they come from speech-dispatcher: install it (e.g. `sudo apt install speech-dispatcher espeak-ng`) and restart Bureau. The desktop app turns it on by itself; a browser must be started with --enable-speech-dispatcher. The espeak-ng engine works without it.'

/** Whether this window can speak with system voices, and which voices it has. */
export async function detectSystemVoices(waitMs = 1_500): Promise<WebSpeechSupport> {
  if (typeof speechSynthesis === 'undefined')
    return { available: false, voices: [], reason: 'This window has no speechSynthesis.' }
  let voices = speechSynthesis.getVoices()
  if (voices.length === 0) {
    // Voices load asynchronously; Chromium announces them with voiceschanged.
    voices = await new Promise<SpeechSynthesisVoice[]>((resolve) => {
      const done = () => resolve(speechSynthesis.getVoices())
      speechSynthesis.addEventListener('voiceschanged', done, { once: true })
      setTimeout(done, waitMs)
    })
  }
  if (voices.length === 0)
    return {
      available: false,
      voices: [],
      reason: isLinux() ? LINUX_SPEECH_DISPATCHER : 'The system offers no voices to this window.',
    }
  return {
    available: true,
    voices: voices.map((v) => ({
      id: v.voiceURI,
      name: `${v.name}${v.localService ? '' : ' (online)'}`,
      language: v.lang,
    })),
  }
}

interface RecognitionResultEvent {
  resultIndex: number
  results: ArrayLike<{ isFinal: boolean; 0: { transcript: string } }>
}

interface Recognition {
  lang: string
  continuous: boolean
  interimResults: boolean
  onresult: ((event: RecognitionResultEvent) => void) | null
  onerror: ((event: { error: string }) => void) | null
  onend: (() => void) | null
  start(): void
  stop(): void
  abort(): void
}

type RecognitionConstructor = new () => Recognition

function recognitionConstructor(): RecognitionConstructor | undefined {
  const w = window as unknown as {
    SpeechRecognition?: RecognitionConstructor
    webkitSpeechRecognition?: RecognitionConstructor
  }
  return w.SpeechRecognition ?? w.webkitSpeechRecognition
}

export function detectSpeechRecognition(): { available: boolean; reason?: string } {
  if (!recognitionConstructor())
    return {
      available: false,
      reason: 'This window has no speech recognition (Firefox and Electron do not offer it).',
    }
  return {
    available: true,
    reason:
      'Chromium sends the audio to an online service for this; the OpenAI-compatible engine can stay local.',
  }
}

/** Web Speech recognition as a live transcriber: interim text while the user speaks, the final text at the end. */
export function webSpeechTranscriber(language: string | null): LiveTranscriber {
  let recognition: Recognition | undefined
  let finalText = ''
  let ended: Promise<void> = Promise.resolve()
  let failure: string | undefined
  return {
    kind: 'live',
    start(onInterim) {
      const Ctor = recognitionConstructor()
      if (!Ctor) throw new Error('this window has no speech recognition')
      const r = new Ctor()
      recognition = r
      finalText = ''
      failure = undefined
      r.lang = language ?? navigator.language
      r.continuous = true
      r.interimResults = true
      r.onresult = (event) => {
        let interim = ''
        for (let i = event.resultIndex; i < event.results.length; i++) {
          const result = event.results[i]
          if (!result) continue
          if (result.isFinal) finalText += result[0].transcript
          else interim += result[0].transcript
        }
        onInterim(`${finalText}${interim}`)
      }
      r.onerror = (event) => {
        if (event.error !== 'no-speech' && event.error !== 'aborted') failure = event.error
      }
      ended = new Promise((resolve) => {
        r.onend = () => resolve()
      })
      r.start()
    },
    async finish() {
      recognition?.stop()
      await ended
      recognition = undefined
      if (failure) throw new Error(`speech recognition failed (${failure})`)
      return finalText.trim()
    },
    abort() {
      recognition?.abort()
      recognition = undefined
    },
  }
}
