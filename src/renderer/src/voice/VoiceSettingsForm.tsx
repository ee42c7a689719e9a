import { useQuery } from '@tanstack/react-query'
import { type FormEvent, useEffect, useState } from 'react'
import type { VoiceEngineInfo, VoiceOption } from '../../../shared/ipc'
import type { PublicSettings } from '../../../shared/settings'
import { Field } from '../components/Field'
import { bureau } from '../ipc/bureauClient'
import { SecretField } from '../settings/SecretField'
import { useUpdateSettings } from '../settings/useSettings'
import { detectSpeechRecognition, detectSystemVoices } from './webSpeech'

type Voice = PublicSettings['voice']

interface Draft {
  ttsEngine: Voice['tts']['engine']
  voice: string
  rate: number
  ttsBaseUrl: string
  ttsModel: string
  sttEngine: Voice['stt']['engine']
  language: string
  sttBaseUrl: string
  sttModel: string
  autoSpeak: boolean
  thresholdDb: number
  silenceMs: number
}

const draftOf = (v: Voice): Draft => ({
  ttsEngine: v.tts.engine,
  voice: v.tts.voice ?? '',
  rate: v.tts.rate,
  ttsBaseUrl: v.tts.baseUrl ?? '',
  ttsModel: v.tts.model ?? '',
  sttEngine: v.stt.engine,
  language: v.stt.language ?? '',
  sttBaseUrl: v.stt.baseUrl ?? '',
  sttModel: v.stt.model ?? '',
  autoSpeak: v.autoSpeak,
  thresholdDb: v.vad.thresholdDb,
  silenceMs: v.vad.silenceMs,
})

const orNull = (text: string) => (text.trim() === '' ? null : text.trim())

/** Engines as the host and this window see them: the window decides for Web Speech. */
function useEngines() {
  const host = useQuery({
    queryKey: ['voice.engines'],
    queryFn: () => bureau.invoke('voice.engines'),
    retry: false,
  })
  const system = useQuery({
    queryKey: ['voice.systemVoices'],
    queryFn: () => detectSystemVoices(),
    retry: false,
  })
  const merge = (list: VoiceEngineInfo[] | undefined, kind: 'tts' | 'stt'): VoiceEngineInfo[] =>
    (list ?? []).map((engine) => {
      if (engine.id !== 'web-speech') return engine
      const support: { available: boolean; reason?: string; voices?: VoiceOption[] } | undefined =
        kind === 'tts' ? system.data : detectSpeechRecognition()
      if (!support) return engine
      const voices = support.voices ?? []
      return {
        ...engine,
        available: support.available,
        voices,
        ...(support.reason ? { reason: support.reason } : {}),
      }
    })
  return { tts: merge(host.data?.tts, 'tts'), stt: merge(host.data?.stt, 'stt'), error: host.error }
}

function EngineNote({ engine }: { engine: VoiceEngineInfo | undefined }) {
  if (!engine) return null
  if (!engine.available) return <p className="field-error voice-engine-note">{engine.reason}</p>
  if (engine.endpoint)
    return <p className="field-hint voice-engine-note">Audio is sent to {engine.endpoint}.</p>
  if (engine.reason && engine.id === 'web-speech')
    return <p className="field-hint voice-engine-note">{engine.reason}</p>
  return null
}

/** Voice settings: engines, voice, rate, auto-speak, microphone sensitivity; saved with settings.update. */
export function VoiceSettingsForm({ settings }: { settings: PublicSettings }) {
  const [draft, setDraft] = useState(() => draftOf(settings.voice))
  const [dirty, setDirty] = useState(false)
  const update = useUpdateSettings()
  const engines = useEngines()
  useEffect(() => {
    if (!dirty) setDraft(draftOf(settings.voice))
  }, [settings.voice, dirty])

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setDraft((d) => ({ ...d, [key]: value, ...(key === 'ttsEngine' ? { voice: '' } : {}) }))
    setDirty(true)
  }
  const tts = engines.tts.find((e) => e.id === draft.ttsEngine)
  const stt = engines.stt.find((e) => e.id === draft.sttEngine)

  const save = (event: FormEvent) => {
    event.preventDefault()
    update.mutate(
      {
        voice: {
          tts: {
            engine: draft.ttsEngine,
            voice: orNull(draft.voice),
            rate: draft.rate,
            baseUrl: orNull(draft.ttsBaseUrl),
            model: orNull(draft.ttsModel),
          },
          stt: {
            engine: draft.sttEngine,
            language: orNull(draft.language),
            baseUrl: orNull(draft.sttBaseUrl),
            model: orNull(draft.sttModel),
          },
          autoSpeak: draft.autoSpeak,
          vad: { thresholdDb: draft.thresholdDb, silenceMs: draft.silenceMs },
        },
      },
      { onSuccess: () => setDirty(false) },
    )
  }

  return (
    <form className="voice-settings" onSubmit={save} noValidate aria-label="Voice settings">
      <fieldset>
        <legend>Speech (text to speech)</legend>
        <Field label="Engine">
          <select
            className="input"
            value={draft.ttsEngine}
            onChange={(e) => set('ttsEngine', e.currentTarget.value as Draft['ttsEngine'])}
          >
            {(engines.tts.length
              ? engines.tts
              : [{ id: draft.ttsEngine, label: draft.ttsEngine, available: true }]
            ).map((e) => (
              <option key={e.id} value={e.id}>
                {e.label}
                {e.available ? '' : ' — not available'}
              </option>
            ))}
          </select>
        </Field>
        <EngineNote engine={tts} />
        <Field label="Voice" hint="Empty: the engine's default voice">
          {tts && tts.voices.length > 0 ? (
            <select
              className="input"
              value={draft.voice}
              onChange={(e) => set('voice', e.currentTarget.value)}
            >
              <option value="">Default</option>
              {tts.voices.map((v) => (
                <option key={v.id} value={v.id}>
                  {v.name}
                  {v.language && v.language !== v.id ? ` (${v.language})` : ''}
                </option>
              ))}
            </select>
          ) : (
            <input
              className="input"
              value={draft.voice}
              onChange={(e) => set('voice', e.currentTarget.value)}
            />
          )}
        </Field>
        <Field label={`Rate: ${draft.rate.toFixed(2)}×`}>
          <input
            type="range"
            min={0.5}
            max={2}
            step={0.05}
            value={draft.rate}
            onChange={(e) => set('rate', Number(e.currentTarget.value))}
          />
        </Field>
        {draft.ttsEngine === 'openai' && (
          <>
            <Field
              label="Speech service URL"
              hint="OpenAI-compatible, e.g. https://api.openai.com/v1. Empty: the chat provider's"
            >
              <input
                className="input"
                value={draft.ttsBaseUrl}
                onChange={(e) => set('ttsBaseUrl', e.currentTarget.value)}
              />
            </Field>
            <Field label="Speech model" hint="Default tts-1">
              <input
                className="input"
                value={draft.ttsModel}
                onChange={(e) => set('ttsModel', e.currentTarget.value)}
              />
            </Field>
            <SecretField
              name="voice.tts.apiKey"
              label="Speech API key"
              secret={settings.secrets['voice.tts.apiKey']}
            />
          </>
        )}
        <label className="checkbox">
          <input
            type="checkbox"
            checked={draft.autoSpeak}
            onChange={(e) => set('autoSpeak', e.currentTarget.checked)}
          />
          Speak chat answers aloud too
        </label>
      </fieldset>
      <fieldset>
        <legend>Listening (speech to text)</legend>
        <Field label="Engine">
          <select
            className="input"
            value={draft.sttEngine}
            onChange={(e) => set('sttEngine', e.currentTarget.value as Draft['sttEngine'])}
          >
            {(engines.stt.length
              ? engines.stt
              : [{ id: draft.sttEngine, label: draft.sttEngine, available: true }]
            ).map((e) => (
              <option key={e.id} value={e.id}>
                {e.label}
                {e.available ? '' : ' — not available'}
              </option>
            ))}
          </select>
        </Field>
        <EngineNote engine={stt} />
        <Field label="Language" hint="e.g. en, de; empty: detected">
          <input
            className="input"
            value={draft.language}
            onChange={(e) => set('language', e.currentTarget.value)}
          />
        </Field>
        {draft.sttEngine === 'openai' && (
          <>
            <Field
              label="Transcription service URL"
              hint="OpenAI, Groq or a local whisper server. Empty: the chat provider's"
            >
              <input
                className="input"
                value={draft.sttBaseUrl}
                onChange={(e) => set('sttBaseUrl', e.currentTarget.value)}
              />
            </Field>
            <Field label="Transcription model" hint="Default whisper-1">
              <input
                className="input"
                value={draft.sttModel}
                onChange={(e) => set('sttModel', e.currentTarget.value)}
              />
            </Field>
            <SecretField
              name="voice.stt.apiKey"
              label="Transcription API key"
              secret={settings.secrets['voice.stt.apiKey']}
            />
          </>
        )}
        <Field
          label={`Sensitivity: speech above ${draft.thresholdDb} dB`}
          hint="Lower hears quieter voices (and more noise)"
        >
          <input
            type="range"
            min={-70}
            max={-20}
            step={1}
            value={draft.thresholdDb}
            onChange={(e) => set('thresholdDb', Number(e.currentTarget.value))}
          />
        </Field>
        <Field label={`End of speech after ${(draft.silenceMs / 1000).toFixed(1)} s of silence`}>
          <input
            type="range"
            min={500}
            max={4000}
            step={100}
            value={draft.silenceMs}
            onChange={(e) => set('silenceMs', Number(e.currentTarget.value))}
          />
        </Field>
      </fieldset>
      <div className="settings-actions">
        {update.error && (
          <span className="field-error" role="alert">
            {update.error.message}
          </span>
        )}
        {update.isSuccess && !dirty && (
          <span className="saved-text" role="status">
            Saved
          </span>
        )}
        <button type="submit" className="button" disabled={!dirty || update.isPending}>
          {update.isPending ? 'Saving…' : 'Save'}
        </button>
      </div>
    </form>
  )
}
