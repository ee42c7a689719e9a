import { useQuery } from '@tanstack/react-query'
import type { FormEvent } from 'react'
import type { VoiceEngineInfo, VoiceOption } from '../../../shared/ipc'
import type { PublicSettings } from '../../../shared/settings'
import { Field } from '../components/Field'
import { SaveActions } from '../settings/SaveActions'
import { SecretField } from '../settings/SecretField'
import { useSectionForm } from '../settings/useSectionForm'
import { useHostVoiceEngines, useSpeechModels } from './voiceApi'
import { detectSpeechRecognition, detectSystemVoices } from './webSpeech'

type Voice = PublicSettings['voice']

interface Draft {
  ttsEngine: Voice['tts']['engine']
  voice: string
  rate: number
  ttsBaseUrl: string
  ttsModel: string
  sttEngine: Voice['stt']['engine']
  whisperModel: string
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
  whisperModel: v.stt.whisperModel ?? '',
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
  const host = useHostVoiceEngines()
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

/** A message with `commands` in backticks, shown as code so they can be copied whole. */
export function WithCommands({ text }: { text: string }) {
  return (
    <>
      {text.split('`').map((part, i) =>
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string
        i % 2 === 1 ? <code key={i}>{part}</code> : <span key={i}>{part}</span>,
      )}
    </>
  )
}

const STATE_WORDS = {
  ready: 'Ready',
  'needs-download': 'Needs a download',
  'needs-install': 'Needs an install',
  unavailable: 'Not available here',
} as const

/** Every engine of one direction with its state and, when it is not ready, what to do. */
function EngineStates({ engines, label }: { engines: VoiceEngineInfo[]; label: string }) {
  if (engines.length === 0) return null
  return (
    <ul className="voice-engine-states" aria-label={label}>
      {engines.map((e) => {
        const state = e.state ?? (e.available ? 'ready' : 'unavailable')
        return (
          <li key={e.id}>
            <span className="voice-engine-name">
              {e.label}
              {e.recommended && <span className="voice-badge">Recommended</span>}
            </span>
            <span className={state === 'ready' ? 'ok-text' : 'muted'}>
              {e.available ? STATE_WORDS.ready : STATE_WORDS[state]}
            </span>
            {!e.available && e.reason && (
              <span className="voice-engine-reason">
                <WithCommands text={e.reason} />
              </span>
            )}
          </li>
        )
      })}
    </ul>
  )
}

function EngineNote({ engine }: { engine: VoiceEngineInfo | undefined }) {
  if (!engine) return null
  if (!engine.available)
    return (
      <p className="field-error voice-engine-note">
        <WithCommands text={engine.reason ?? 'Not available here.'} />
      </p>
    )
  if (engine.endpoint)
    return <p className="field-hint voice-engine-note">Audio is sent to {engine.endpoint}.</p>
  if (engine.reason && engine.id === 'web-speech')
    return <p className="field-hint voice-engine-note">{engine.reason}</p>
  return null
}

function EngineSelect({
  engines,
  value,
  onChange,
}: {
  engines: VoiceEngineInfo[]
  value: string
  onChange(id: string): void
}) {
  // Before the host answers, the saved engine is the only choice.
  const choices: Pick<VoiceEngineInfo, 'id' | 'label' | 'available' | 'state'>[] = engines.length
    ? engines
    : [{ id: value, label: value, available: true }]
  return (
    <>
      <Field label="Engine">
        <select className="input" value={value} onChange={(e) => onChange(e.currentTarget.value)}>
          {choices.map((e) => (
            <option key={e.id} value={e.id}>
              {e.label}
              {e.available ? '' : ` — ${STATE_WORDS[e.state ?? 'unavailable'].toLowerCase()}`}
            </option>
          ))}
        </select>
      </Field>
      <EngineNote engine={engines.find((e) => e.id === value)} />
    </>
  )
}

const SPEECH_SERVICE = {
  urlLabel: 'Speech service URL',
  urlHint: "OpenAI-compatible, e.g. https://api.openai.com/v1. Empty: the chat provider's",
  modelLabel: 'Speech model',
  modelHint: 'Default tts-1',
  keyLabel: 'Speech API key',
  keyName: 'voice.tts.apiKey',
}

const TRANSCRIPTION_SERVICE = {
  urlLabel: 'Transcription service URL',
  urlHint: "OpenAI, Groq or a local whisper server. Empty: the chat provider's",
  modelLabel: 'Transcription model',
  modelHint: 'Default whisper-1',
  keyLabel: 'Transcription API key',
  keyName: 'voice.stt.apiKey',
}

function RangeField({
  label,
  hint,
  min,
  max,
  step,
  value,
  onChange,
}: {
  label: string
  hint?: string
  min: number
  max: number
  step: number
  value: number
  onChange(value: number): void
}) {
  return (
    <Field label={label} hint={hint}>
      <input
        type="range"
        min={min}
        max={max}
        step={step}
        value={value}
        onChange={(e) => onChange(Number(e.currentTarget.value))}
      />
    </Field>
  )
}

/** The OpenAI-compatible service of one direction: URL, model and API key. */
function ServiceFields({
  service,
  baseUrl,
  model,
  onChange,
  secrets,
}: {
  service: typeof SPEECH_SERVICE
  baseUrl: string
  model: string
  onChange(field: 'baseUrl' | 'model', value: string): void
  secrets: PublicSettings['secrets']
}) {
  return (
    <>
      <Field label={service.urlLabel} hint={service.urlHint}>
        <input
          className="input"
          value={baseUrl}
          onChange={(e) => onChange('baseUrl', e.currentTarget.value)}
        />
      </Field>
      <Field label={service.modelLabel} hint={service.modelHint}>
        <input className="input" value={model} onChange={(e) => onChange('model', e.currentTarget.value)} />
      </Field>
      <SecretField name={service.keyName} label={service.keyLabel} secret={secrets[service.keyName]} />
    </>
  )
}

/** Voice settings: engines, voice, rate, auto-speak, microphone sensitivity; saved with settings.update. */
export function VoiceSettingsForm({ settings }: { settings: PublicSettings }) {
  const form = useSectionForm(draftOf(settings.voice), (draft) => ({
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
        whisperModel: orNull(draft.whisperModel),
        language: orNull(draft.language),
        baseUrl: orNull(draft.sttBaseUrl),
        model: orNull(draft.sttModel),
      },
      autoSpeak: draft.autoSpeak,
      vad: { thresholdDb: draft.thresholdDb, silenceMs: draft.silenceMs },
    },
  }))
  const { draft, set } = form
  const engines = useEngines()
  const whisperModels = useSpeechModels().models.filter((m) => m.kind === 'whisper' && m.installed)
  const tts = engines.tts.find((e) => e.id === draft.ttsEngine)
  const save = (event: FormEvent) => {
    event.preventDefault()
    if (form.dirty && !form.saving) form.save()
  }

  return (
    <form className="voice-settings" onSubmit={save} noValidate aria-label="Voice settings">
      <fieldset>
        <legend>Speech (text to speech)</legend>
        <EngineStates engines={engines.tts} label="Speech engines" />
        <EngineSelect
          engines={engines.tts}
          value={draft.ttsEngine}
          onChange={(id) => {
            set('ttsEngine', id as Draft['ttsEngine'])
            set('voice', '')
          }}
        />
        <Field label="Voice" hint="Empty: the engine's default voice">
          {tts && tts.voices.length > 0 ? (
            <select className="input" {...form.text('voice')}>
              <option value="">Default</option>
              {tts.voices.map((v) => (
                <option key={v.id} value={v.id}>
                  {v.name}
                  {v.language && v.language !== v.id ? ` (${v.language})` : ''}
                </option>
              ))}
            </select>
          ) : (
            <input className="input" {...form.text('voice')} />
          )}
        </Field>
        <RangeField
          label={`Rate: ${draft.rate.toFixed(2)}×`}
          min={0.5}
          max={2}
          step={0.05}
          value={draft.rate}
          onChange={(rate) => set('rate', rate)}
        />
        {draft.ttsEngine === 'openai' && (
          <ServiceFields
            service={SPEECH_SERVICE}
            baseUrl={draft.ttsBaseUrl}
            model={draft.ttsModel}
            onChange={(field, value) => set(field === 'baseUrl' ? 'ttsBaseUrl' : 'ttsModel', value)}
            secrets={settings.secrets}
          />
        )}
        <label className="checkbox">
          <input type="checkbox" {...form.checkbox('autoSpeak')} />
          Speak chat answers aloud too
        </label>
      </fieldset>
      <fieldset>
        <legend>Listening (speech to text)</legend>
        <EngineStates engines={engines.stt} label="Recognition engines" />
        <EngineSelect
          engines={engines.stt}
          value={draft.sttEngine}
          onChange={(id) => set('sttEngine', id as Draft['sttEngine'])}
        />
        {draft.sttEngine === 'whisper' && whisperModels.length > 0 && (
          <Field label="Whisper model" hint="Larger models hear better and take longer">
            <select className="input" {...form.text('whisperModel')}>
              <option value="">The first installed</option>
              {whisperModels.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.name}
                </option>
              ))}
            </select>
          </Field>
        )}
        <Field label="Language" hint="e.g. en, de; empty: detected">
          <input className="input" {...form.text('language')} />
        </Field>
        {draft.sttEngine === 'openai' && (
          <ServiceFields
            service={TRANSCRIPTION_SERVICE}
            baseUrl={draft.sttBaseUrl}
            model={draft.sttModel}
            onChange={(field, value) => set(field === 'baseUrl' ? 'sttBaseUrl' : 'sttModel', value)}
            secrets={settings.secrets}
          />
        )}
        <RangeField
          label={`Sensitivity: speech above ${draft.thresholdDb} dB`}
          hint="Lower hears quieter voices (and more noise)"
          min={-70}
          max={-20}
          step={1}
          value={draft.thresholdDb}
          onChange={(db) => set('thresholdDb', db)}
        />
        <RangeField
          label={`End of speech after ${(draft.silenceMs / 1000).toFixed(1)} s of silence`}
          min={500}
          max={4000}
          step={100}
          value={draft.silenceMs}
          onChange={(ms) => set('silenceMs', ms)}
        />
      </fieldset>
      <SaveActions dirty={form.dirty} saving={form.saving} saved={form.saved} error={form.error} />
    </form>
  )
}
