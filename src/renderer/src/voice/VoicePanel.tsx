import './voice.css'
import { type FormEvent, useState } from 'react'
import { DEFAULT_VAD } from '../../../shared/voice'
import { DropZone } from '../chat/composer/DropZone'
import { Icon } from '../components/Icon'
import { AttachFilesButton, PendingFileChips, RejectedFiles } from '../components/PendingFiles'
import { useSettings } from '../settings/useSettings'
import { AnswerView } from './AnswerView'
import { LevelMeter } from './LevelMeter'
import { MetricsView } from './MetricsView'
import { MicButton } from './MicButton'
import { useVoiceSession } from './useVoiceSession'
import { VoiceSettingsForm } from './VoiceSettingsForm'
import type { VoiceSessionState } from './voiceSession'
import { useVoice } from './voiceStore'

function statusText(state: VoiceSessionState): string {
  if (state.speaking) return 'Speaking… talk to interrupt.'
  switch (state.phase) {
    case 'recording':
      return state.mode === 'push' ? 'Recording… release to send.' : 'Listening to you…'
    case 'transcribing':
      return 'Transcribing…'
    case 'answering':
      return 'Answering…'
    case 'listening':
      return 'Listening. Just speak.'
    default:
      return state.mode === 'push'
        ? 'Hold the button (or Space) and speak.'
        : 'Click the button to start listening.'
  }
}

/** The Voice page: talk to Bureau and hear the answer while it streams. */
export default function VoicePanel() {
  const settings = useSettings().data
  const { session, playback, ensureMicrophone } = useVoiceSession(settings)
  const state = useVoice((s) => s.session) as VoiceSessionState
  const { files, rejected, addFiles, removeFile, dismissRejected } = useVoice()
  const [typed, setTyped] = useState('')
  const thresholdDb = settings?.voice.vad.thresholdDb ?? DEFAULT_VAD.thresholdDb
  const busy = state.speaking || state.answer?.status === 'streaming'

  const submitTyped = (event: FormEvent) => {
    event.preventDefault()
    const text = typed.trim()
    if (!text) return
    setTyped('')
    // A typed question needs no microphone, but playback still needs this gesture.
    playback.unlock()
    void session.askText(text)
  }

  return (
    <section className="voice-page" aria-labelledby="page-title">
      <DropZone onFiles={addFiles}>
        <div className="voice-main">
          <header className="voice-header">
            <h1 id="page-title">Voice</h1>
            <fieldset className="voice-mode" aria-label="How to talk">
              {(['push', 'handsfree'] as const).map((mode) => (
                <label key={mode} className={state.mode === mode ? 'is-selected' : undefined}>
                  <input
                    type="radio"
                    name="voice-mode"
                    value={mode}
                    checked={state.mode === mode}
                    onChange={() => session.setMode(mode)}
                  />
                  {mode === 'push' ? 'Push to talk' : 'Hands-free'}
                </label>
              ))}
            </fieldset>
            <button type="button" className="button secondary" onClick={() => session.newConversation()}>
              <Icon name="plus" size={16} />
              New conversation
            </button>
          </header>

          <div className="voice-stage">
            <MicButton
              mode={state.mode}
              phase={state.phase}
              active={state.active}
              ensureMicrophone={ensureMicrophone}
              onPress={() => session.press()}
              onRelease={() => session.release()}
              onToggle={(on) => (on ? session.startListening() : session.stopListening())}
            />
            <LevelMeter levelDb={state.levelDb} thresholdDb={thresholdDb} />
            <p className="voice-status" role="status" data-testid="voice-status" data-phase={state.phase}>
              {statusText(state)}
            </p>
            {busy && (
              <button type="button" className="button voice-stop" onClick={() => session.stop()}>
                <Icon name="stop" size={16} />
                Stop
              </button>
            )}
          </div>

          {state.problem && (
            <div className="banner banner-error" role="alert" data-testid="voice-problem">
              <Icon name="alert" size={18} />
              <div className="banner-text">
                <span>{state.problem}</span>
              </div>
              <button
                type="button"
                className="icon-button"
                aria-label="Dismiss"
                onClick={() => session.dismissProblem()}
              >
                <Icon name="close" size={16} />
              </button>
            </div>
          )}

          {(state.transcript || state.interim) && (
            <section className="voice-transcript" aria-label="You said">
              <span className="voice-who">You</span>
              <p
                data-testid="voice-transcript"
                className={state.phase === 'transcribing' && state.interim ? 'voice-partial' : undefined}
              >
                {state.phase === 'transcribing' && state.interim
                  ? state.interim
                  : state.transcript && state.phase !== 'recording'
                    ? state.transcript
                    : state.interim}
              </p>
            </section>
          )}

          {state.answer && (
            <div className="voice-reply">
              <span className="voice-who">Bureau</span>
              <AnswerView answer={state.answer} />
            </div>
          )}

          <div className="voice-attachments">
            <RejectedFiles rejected={rejected} onDismiss={dismissRejected} />
            <PendingFileChips label="Files for the next question" files={files} onRemove={removeFile} />
          </div>

          <form className="voice-typed" onSubmit={submitTyped}>
            <AttachFilesButton
              title="Attach files (or drop them on the page)"
              testId="voice-file-input"
              onFiles={addFiles}
            />
            <input
              className="input"
              aria-label="Type a question instead"
              placeholder="…or type a question"
              value={typed}
              onChange={(e) => setTyped(e.currentTarget.value)}
            />
            <button type="submit" className="button secondary" disabled={!typed.trim()}>
              Ask
            </button>
          </form>

          <details className="voice-details" open>
            <summary>Latency</summary>
            <MetricsView timeline={state.timeline} />
          </details>
          <details className="voice-details">
            <summary>Voice settings</summary>
            {settings ? <VoiceSettingsForm settings={settings} /> : <p className="muted">Loading…</p>}
          </details>
        </div>
      </DropZone>
    </section>
  )
}
