import { useEffect, useState } from 'react'
import type { SpeechModelSummary } from '../../../shared/ipc'
import { formatBytes } from '../components/formatBytes'
import { Icon } from '../components/Icon'
import { DownloadProgress } from '../settings/DownloadProgress'
import { useUpdateSettings } from '../settings/useSettings'
import { useSpeechModelActions, useSpeechModels } from '../voice/voiceApi'

/** The smallest recognizer and a voice for the window's language (English when there is none). */
function offer(models: SpeechModelSummary[], language: string) {
  const english = language === 'en'
  const whisper = models.find((m) => m.id === (english ? 'whisper-tiny.en' : 'whisper-tiny'))
  const voices = models.filter((m) => m.kind === 'piper')
  const voice = voices.find((m) => m.language === language) ?? voices.find((m) => m.language === 'en')
  return whisper && voice ? { whisper, voice } : undefined
}

/**
 * The first-run offer to talk to Bureau offline: whisper tiny and a Piper voice, with their sizes.
 * Once both are installed they become the Voice engines. "Not now" hides it.
 */
export function TalkOffline() {
  const { models } = useSpeechModels()
  const actions = useSpeechModelActions()
  const update = useUpdateSettings()
  const [state, setState] = useState<'offered' | 'skipped' | 'requested'>('offered')
  const [problem, setProblem] = useState<string>()
  const language = (navigator.language || 'en').slice(0, 2).toLowerCase()
  const pair = offer(models, language)
  const both = pair ? [pair.whisper, pair.voice] : []
  const installed = both.length > 0 && both.every((m) => m.installed)
  const whisperId = pair?.whisper.id
  const voiceId = pair?.voice.id
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when both downloads have ended
  useEffect(() => {
    if (state !== 'requested' || !installed || !whisperId || !voiceId) return
    update.mutate({
      voice: {
        stt: { engine: 'whisper', whisperModel: whisperId },
        tts: { engine: 'piper', voice: voiceId },
      },
    })
  }, [state, installed])
  if (!pair || state === 'skipped') return null
  const total = both.reduce((sum, m) => sum + m.sizeBytes, 0)
  const download = () => {
    setState('requested')
    setProblem(undefined)
    Promise.all(both.filter((m) => !m.installed).map((m) => actions.pull(m.id))).catch((e: Error) =>
      setProblem(e.message),
    )
  }
  return (
    <section className="guide-voice" aria-labelledby="guide-voice-title">
      <h3 id="guide-voice-title">Talk to Bureau offline</h3>
      <p className="muted">
        Speech recognition ({pair.whisper.name}, {formatBytes(pair.whisper.sizeBytes)}) and a natural voice (
        {pair.voice.name}, {formatBytes(pair.voice.sizeBytes)}) that run on this computer: what you say stays
        here.
      </p>
      {installed ? (
        <p className="ok-text" role="status">
          <Icon name="check" size={14} />{' '}
          {update.isSuccess ? 'Offline voice is ready: open the Voice page to talk.' : 'Both are installed.'}
        </p>
      ) : (
        <div className="guide-voice-actions">
          <button
            type="button"
            className="button secondary"
            disabled={both.some((m) => m.download?.state === 'downloading')}
            onClick={download}
          >
            <Icon name="download" size={14} /> Download both ({formatBytes(total)})
          </button>
          <button type="button" className="button secondary" onClick={() => setState('skipped')}>
            Not now
          </button>
        </div>
      )}
      {both.map((m) =>
        m.download && m.download.state !== 'done' ? (
          <DownloadProgress
            key={m.id}
            progress={m.download}
            onCancel={() => void actions.cancel(m.id).catch((e: Error) => setProblem(e.message))}
          />
        ) : null,
      )}
      {(problem || update.error) && <p className="error-text">{problem ?? update.error?.message}</p>}
    </section>
  )
}
