import { useEffect, useRef } from 'react'
import type { AttachmentInput } from '../../../shared/ipc'
import type { PublicSettings } from '../../../shared/settings'
import { DEFAULT_VAD } from '../../../shared/voice'
import { useBureau } from '../ipc/BureauProvider'
import { AudioPlayback } from './audioPlayback'
import { Microphone, microphoneProblem } from './microphone'
import { savedSpeechOutput } from './speechOutputs'
import { hostTranscriber, ipcVoiceHost } from './voiceHost'
import type { LiveTranscriber } from './voicePorts'
import { createVoiceSession, type VoiceSession } from './voiceSession'
import { useVoice } from './voiceStore'
import { webSpeechTranscriber } from './webSpeech'

async function toAttachment(file: File): Promise<AttachmentInput> {
  const bytes = new Uint8Array(await file.arrayBuffer())
  return file.type ? { name: file.name, bytes, mimeType: file.type } : { name: file.name, bytes }
}

export interface VoiceControls {
  session: VoiceSession
  playback: AudioPlayback
  /** Opens the microphone on first use (must run inside a user gesture); false when it failed. */
  ensureMicrophone(): Promise<boolean>
}

/** One voice session for the page's lifetime; it reads the latest settings whenever it needs them. */
export function useVoiceSession(settings: PublicSettings | undefined): VoiceControls {
  const bureau = useBureau()
  const settingsRef = useRef(settings)
  settingsRef.current = settings
  const controls = useRef<VoiceControls | undefined>(undefined)

  if (!controls.current) {
    const playback = new AudioPlayback()
    let live: { language: string | null; transcriber: LiveTranscriber } | undefined
    const voice = () => settingsRef.current?.voice
    const session = createVoiceSession(
      {
        host: ipcVoiceHost(bureau),
        now: () => performance.now(),
        config: () => ({
          thresholdDb: voice()?.vad.thresholdDb ?? DEFAULT_VAD.thresholdDb,
          silenceMs: voice()?.vad.silenceMs ?? DEFAULT_VAD.silenceMs,
        }),
        output: () => savedSpeechOutput(bureau, playback, voice()?.tts),
        transcriber() {
          const stt = voice()?.stt
          if (stt?.engine !== 'web-speech')
            return hostTranscriber(bureau, {
              wav: stt?.engine === 'whisper' || stt?.engine === 'pocketsphinx',
              engine: stt?.engine ?? 'openai',
            })
          if (!live || live.language !== stt.language)
            live = { language: stt.language, transcriber: webSpeechTranscriber(stt.language) }
          return live.transcriber
        },
        takeAttachments: () =>
          Promise.all(
            useVoice
              .getState()
              .takeFiles()
              .map((p) => toAttachment(p.file)),
          ),
      },
      (state) => useVoice.getState().setSession(state),
    )
    useVoice.getState().setSession(session.state)
    let opening: Promise<boolean> | undefined
    controls.current = {
      session,
      playback,
      ensureMicrophone() {
        playback.unlock()
        opening ??= Microphone.open({
          onLevel: (db) => session.level(db),
          now: () => performance.now(),
        }).then(
          (mic) => {
            session.attachMicrophone(mic)
            return true
          },
          (error: unknown) => {
            opening = undefined
            session.reportProblem(microphoneProblem(error))
            return false
          },
        )
        return opening
      },
    }
  }

  useEffect(
    () => () => {
      controls.current?.session.dispose()
      controls.current?.playback.close()
    },
    [],
  )
  return controls.current
}
