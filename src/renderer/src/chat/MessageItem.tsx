import { memo } from 'react'
import type { ChatMessage } from '../../../shared/ipc'
import { AttachmentChip, AttachmentChipList } from '../components/AttachmentChip'
import { Icon } from '../components/Icon'
import { Markdown } from '../components/Markdown'
import { ProblemBanner } from '../components/ProblemBanner'
import { ReturnedFileChip } from '../components/ReturnedFileChip'
import { StepTimeline } from '../components/StepTimeline'
import { useCopy } from '../components/useCopy'
import { KnowledgeSources } from '../knowledge/KnowledgeSources'

function UserMessage({ message }: { message: ChatMessage }) {
  return (
    <div className="message message-user">
      <div className="bubble">
        {message.attachments.length > 0 && (
          <AttachmentChipList label="Attached files">
            {message.attachments.map((a, i) => (
              <AttachmentChip
                // biome-ignore lint/suspicious/noArrayIndexKey: the position is the attachment's identity (names may repeat)
                key={`${a.name}-${i}`}
                name={a.name}
                size={a.size}
                status={a.status}
                error={a.error}
                chars={a.chars}
                truncated={a.truncated}
                warnings={a.warnings}
              />
            ))}
          </AttachmentChipList>
        )}
        {message.text && <p className="user-text">{message.text}</p>}
      </div>
    </div>
  )
}

function AssistantMessage({ message }: { message: ChatMessage }) {
  const streaming = message.status === 'streaming'
  const { copied, copy } = useCopy()
  const waiting = streaming && message.text === '' && message.steps.length === 0
  return (
    <div className="message message-assistant" data-status={message.status}>
      <div className="avatar" aria-hidden="true">
        B
      </div>
      <div className="message-body">
        {message.steps.length > 0 && <StepTimeline steps={message.steps} running={streaming} />}
        {waiting && (
          <p className="thinking" role="status" aria-label="Working">
            <span />
            <span />
            <span />
          </p>
        )}
        {message.text && (
          <div className={streaming ? 'answer streaming' : 'answer'} data-testid="assistant-text">
            <Markdown text={message.text} streaming={streaming} />
          </div>
        )}
        {!streaming && <KnowledgeSources steps={message.steps} />}
        {message.files.length > 0 && (
          <ul className="chip-list" aria-label="Files from Bureau">
            {message.files.map((file) => (
              <ReturnedFileChip key={file.agentPath} file={file} />
            ))}
          </ul>
        )}
        {message.status === 'error' && message.error && (
          <ProblemBanner problem={{ message: message.error }} />
        )}
        {(message.status === 'cancelled' || message.status === 'interrupted') && (
          <p className="message-note">
            <Icon name="stop" size={12} /> {message.status === 'cancelled' ? 'Stopped' : 'Interrupted'}
          </p>
        )}
        {!streaming && message.text && (
          <div className="message-tools">
            <button type="button" className="ghost-button" onClick={() => copy(message.text)}>
              <Icon name={copied ? 'check' : 'copy'} size={14} />
              {copied ? 'Copied' : 'Copy'}
            </button>
            {message.usage && message.usage.inputTokens + message.usage.outputTokens > 0 && (
              <span className="usage">
                {message.usage.inputTokens.toLocaleString()} in ·{' '}
                {message.usage.outputTokens.toLocaleString()} out
                {message.usage.cachedInputTokens
                  ? ` · ${message.usage.cachedInputTokens.toLocaleString()} cached`
                  : ''}
              </span>
            )}
          </div>
        )}
      </div>
    </div>
  )
}

/** One message; memoized so streaming into the last one does not re-render the rest. */
export const MessageItem = memo(function MessageItem({ message }: { message: ChatMessage }) {
  return message.role === 'user' ? <UserMessage message={message} /> : <AssistantMessage message={message} />
})
