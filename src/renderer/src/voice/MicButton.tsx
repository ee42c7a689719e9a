import { type KeyboardEvent, useRef } from 'react'
import type { VoiceMode, VoicePhase } from './voiceSession'

export interface MicButtonProps {
  mode: VoiceMode
  phase: VoicePhase
  active: boolean
  /** Opens the microphone if needed; resolves false when it could not be opened. */
  ensureMicrophone(): Promise<boolean>
  onPress(): void
  onRelease(): void
  onToggle(on: boolean): void
}

function label(mode: VoiceMode, phase: VoicePhase, active: boolean): string {
  if (mode === 'handsfree') return active ? 'Stop listening' : 'Start listening'
  return phase === 'recording' ? 'Release to send' : 'Hold to talk'
}

/**
 * The big microphone button. Push-to-talk: hold it (pointer, or Space/Enter) while speaking.
 * Hands-free: click once to listen continuously, again to stop.
 */
export function MicButton(props: MicButtonProps) {
  const { mode, phase, active } = props
  const held = useRef(false)
  const recording = phase === 'recording'

  const down = async () => {
    if (held.current) return
    held.current = true
    if (!(await props.ensureMicrophone())) {
      held.current = false
      return
    }
    // Released while the microphone was opening: nothing to record.
    if (held.current) props.onPress()
  }
  const up = () => {
    if (!held.current) return
    held.current = false
    props.onRelease()
  }
  const toggle = async () => {
    if (active) return props.onToggle(false)
    if (await props.ensureMicrophone()) props.onToggle(true)
  }

  const onKeyDown = (event: KeyboardEvent) => {
    if (mode !== 'push' || (event.key !== ' ' && event.key !== 'Enter') || event.repeat) return
    event.preventDefault()
    void down()
  }
  const onKeyUp = (event: KeyboardEvent) => {
    if (mode !== 'push' || (event.key !== ' ' && event.key !== 'Enter')) return
    event.preventDefault()
    up()
  }

  return (
    <button
      type="button"
      className={`mic-button${recording ? ' is-recording' : ''}${active ? ' is-active' : ''}`}
      data-testid="mic-button"
      aria-pressed={mode === 'push' ? recording : active}
      aria-label={label(mode, phase, active)}
      onPointerDown={mode === 'push' ? () => void down() : undefined}
      onPointerUp={mode === 'push' ? up : undefined}
      onPointerLeave={mode === 'push' ? up : undefined}
      onPointerCancel={mode === 'push' ? up : undefined}
      onClick={mode === 'handsfree' ? () => void toggle() : undefined}
      onKeyDown={onKeyDown}
      onKeyUp={onKeyUp}
    >
      <svg
        viewBox="0 0 24 24"
        width="48"
        height="48"
        aria-hidden="true"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
      >
        <rect x="9" y="3" width="6" height="11" rx="3" />
        <path d="M5 11a7 7 0 0 0 14 0M12 18v3M8 21h8" strokeLinecap="round" />
      </svg>
      <span className="mic-label" aria-hidden="true">
        {label(mode, phase, active)}
      </span>
    </button>
  )
}
