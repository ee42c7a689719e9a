import { memo, useState } from 'react'
import type { ChatMessage } from '../../../../shared/ipc'
import { AttachmentChip, AttachmentChipList } from '../../components/AttachmentChip'
import { Icon } from '../../components/Icon'
import { Markdown } from '../../components/Markdown'
import { ProblemBanner } from '../../components/ProblemBanner'
import { ReturnedFileChip } from '../../components/ReturnedFileChip'
import { StepTimeline } from '../../components/StepTimeline'
import { KnowledgeSources } from '../../knowledge/KnowledgeSources'
import { MemoryChip } from '../../memory/MemoryChip'
import { useChatActions } from '../chatActions'
import { useChat } from '../chatStore'
import { ExportDocumentMenu } from '../ExportDocumentMenu'
import { AnswerActions, CopyButton, DeletePairButton, type VersionInfo, VersionNav } from './MessageActions'

interface ItemProps {
  message: ChatMessage
  version: VersionInfo
  /** A reply is running or being sent: no new actions until it ends. */
  busy: boolean
}

function EditBox({ message, onClose }: { message: ChatMessage; onClose(): void }) {
  const { sendEdit } = useChatActions()
  const [text, setText] = useState(message.text)
  const submit = async () => {
    if (await sendEdit(message.id, text)) onClose()
  }
  return (
    <form
      className="edit-box"
      onSubmit={(event) => {
        event.preventDefault()
        void submit()
      }}
    >
      <textarea
        className="input"
        aria-label="Edit message"
        value={text}
        rows={Math.min(8, Math.max(2, text.split('\n').length))}
        onChange={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') onClose()
        }}
        // biome-ignore lint/a11y/noAutofocus: the user just asked to edit this message
        autoFocus
      />
      <p className="hint">The answers below stay as another branch (‹ › switches between them).</p>
      <div className="edit-buttons">
        <button
          type="submit"
          className="button small"
          disabled={text.trim() === '' && message.attachments.length === 0}
        >
          Send
        </button>
        <button type="button" className="button small secondary" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  )
}

function UserMessage({ message, version, busy }: ItemProps) {
  const [editing, setEditing] = useState(false)
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
                previewPath={a.agentPath}
              />
            ))}
          </AttachmentChipList>
        )}
        {editing ? (
          <EditBox message={message} onClose={() => setEditing(false)} />
        ) : (
          message.text && <p className="user-text">{message.text}</p>
        )}
      </div>
      {!editing && (
        <div className="message-tools user-tools">
          <VersionNav version={version} disabled={busy} />
          {message.text && <CopyButton text={message.text} />}
          <button type="button" className="ghost-button" disabled={busy} onClick={() => setEditing(true)}>
            <Icon name="pencil" size={14} />
            Edit
          </button>
          <DeletePairButton messageId={message.id} disabled={busy} />
        </div>
      )}
    </div>
  )
}

function AssistantMessage({ message, version, busy }: ItemProps) {
  const streaming = message.status === 'streaming'
  const waiting = streaming && message.text === '' && message.steps.length === 0
  const conversationId = useChat((s) => s.conversationId)
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
        {!streaming && <MemoryChip steps={message.steps} />}
        {message.files.length > 0 && (
          <ul className="chip-list" aria-label="Files from Bureau">
            {message.files.map((file) => (
              <ReturnedFileChip key={file.agentPath} file={file} steps={message.steps} />
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
        {!streaming && (
          <div className="message-tools">
            <VersionNav version={version} disabled={busy} />
            {message.text && <CopyButton text={message.text} />}
            <AnswerActions message={message} disabled={busy} />
            {conversationId && message.text.trim() !== '' && (
              <ExportDocumentMenu conversationId={conversationId} messageId={message.id} />
            )}
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
        {!streaming && version.count > 1 && version.ranTools && (
          <p className="message-note">Files the other versions wrote stay in the workspace history.</p>
        )}
      </div>
    </div>
  )
}

/** One message; memoized so streaming into the last one does not re-render the rest. */
export const MessageItem = memo(function MessageItem(props: ItemProps) {
  return props.message.role === 'user' ? <UserMessage {...props} /> : <AssistantMessage {...props} />
})
