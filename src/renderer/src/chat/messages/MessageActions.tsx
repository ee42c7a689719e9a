import { useState } from 'react'
import type { ChatMessage } from '../../../../shared/ipc'
import { Icon } from '../../components/Icon'
import { useCopy } from '../../components/useCopy'
import { useChatActions } from '../chatActions'

/** Where a message stands among its versions, and the neighbours ‹ › switch to. */
export interface VersionInfo {
  index: number
  count: number
  previousId?: string | undefined
  nextId?: string | undefined
  /** A version ran tools: what it wrote stays in the workspace history. */
  ranTools: boolean
}

function VersionStep(props: {
  label: string
  icon: 'back' | 'chevron'
  target: string | undefined
  disabled: boolean
}) {
  const { target } = props
  const { showVersion } = useChatActions()
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={props.label}
      disabled={props.disabled || !target}
      onClick={() => target && void showVersion(target)}
    >
      <Icon name={props.icon} size={14} />
    </button>
  )
}

export function VersionNav({ version, disabled }: { version: VersionInfo; disabled: boolean }) {
  if (version.count < 2) return null
  return (
    <span className="version-nav">
      <VersionStep label="Previous version" icon="back" target={version.previousId} disabled={disabled} />
      <span className="version-count">
        <span aria-hidden="true">
          {version.index + 1}/{version.count}
        </span>
        <span className="visually-hidden">
          Version {version.index + 1} of {version.count}
        </span>
      </span>
      <VersionStep label="Next version" icon="chevron" target={version.nextId} disabled={disabled} />
    </span>
  )
}

export function CopyButton({ text }: { text: string }) {
  const { copied, copy } = useCopy()
  return (
    <button type="button" className="ghost-button" onClick={() => copy(text)}>
      <Icon name={copied ? 'check' : 'copy'} size={14} />
      {copied ? 'Copied' : 'Copy'}
    </button>
  )
}

/** Delete with an inline confirmation: the question and its answers (all versions) go. */
export function DeletePairButton({ messageId, disabled }: { messageId: string; disabled: boolean }) {
  const { deleteMessagePair } = useChatActions()
  const [confirming, setConfirming] = useState(false)
  if (confirming)
    return (
      <span className="confirm-inline">
        <span>Delete this question and its answer?</span>
        <button
          type="button"
          className="button small danger"
          onClick={() => {
            setConfirming(false)
            void deleteMessagePair(messageId)
          }}
        >
          Delete
        </button>
        <button type="button" className="button small secondary" onClick={() => setConfirming(false)}>
          Cancel
        </button>
      </span>
    )
  return (
    <button type="button" className="ghost-button" disabled={disabled} onClick={() => setConfirming(true)}>
      <Icon name="trash" size={14} />
      Delete
    </button>
  )
}

/** Regenerate, Retry (after an error or a stop), Continue (a stopped answer with text). */
export function AnswerActions({ message, disabled }: { message: ChatMessage; disabled: boolean }) {
  const { answerAgain } = useChatActions()
  const failed =
    message.status === 'error' || message.status === 'cancelled' || message.status === 'interrupted'
  const canContinue = failed && message.text.trim() !== ''
  const ranTools = message.steps.length > 0
  return (
    <>
      <button
        type="button"
        className="ghost-button"
        disabled={disabled}
        title={ranTools ? 'Files the earlier run wrote stay in the workspace history.' : undefined}
        onClick={() => void answerAgain('chat.regenerate', message.id)}
      >
        <Icon name="refresh" size={14} />
        {failed ? 'Retry' : 'Regenerate'}
      </button>
      {canContinue && (
        <button
          type="button"
          className="ghost-button"
          disabled={disabled}
          onClick={() => void answerAgain('chat.continue', message.id)}
        >
          <Icon name="play" size={14} />
          Continue
        </button>
      )}
    </>
  )
}
