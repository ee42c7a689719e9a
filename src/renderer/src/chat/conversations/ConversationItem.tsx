import { type FormEvent, useState } from 'react'
import type { ConversationSummary } from '../../../../shared/ipc'
import { Icon } from '../../components/Icon'

interface Props {
  conversation: ConversationSummary
  active: boolean
  onOpen(): void
  onRename(title: string): Promise<void>
  onDelete(): Promise<void>
  onPin(pinned: boolean): Promise<void>
}

/** The search snippet with the match marked. */
function HitSnippet({ hit }: { hit: NonNullable<ConversationSummary['hit']> }) {
  return (
    <span className="conversation-hit" data-testid="search-hit">
      {hit.snippet.slice(0, hit.start)}
      <mark>{hit.snippet.slice(hit.start, hit.end)}</mark>
      {hit.snippet.slice(hit.end)}
    </span>
  )
}

type Mode = 'view' | 'rename' | 'confirm-delete'

/** One conversation in the list, with inline rename and a confirmed delete. */
export function ConversationItem({ conversation, active, onOpen, onRename, onDelete, onPin }: Props) {
  const [mode, setMode] = useState<Mode>('view')
  const [title, setTitle] = useState(conversation.title)

  const submitRename = async (event: FormEvent) => {
    event.preventDefault()
    if (title.trim() && title.trim() !== conversation.title) await onRename(title.trim())
    setMode('view')
  }

  if (mode === 'rename')
    return (
      <li className="conversation editing">
        <form onSubmit={submitRename}>
          <input
            className="input"
            aria-label="Conversation title"
            value={title}
            maxLength={200}
            onChange={(e) => setTitle(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') {
                // Esc cancels the rename only (it does not stop an answer or close the drawer).
                e.preventDefault()
                setTitle(conversation.title)
                setMode('view')
              }
            }}
            onBlur={submitRename}
            // biome-ignore lint/a11y/noAutofocus: the user just asked to rename this item
            autoFocus
          />
        </form>
      </li>
    )

  if (mode === 'confirm-delete')
    return (
      <li className="conversation confirming">
        <span className="conversation-confirm">Delete “{conversation.title}”?</span>
        <div className="conversation-confirm-buttons">
          <button type="button" className="button small danger" onClick={() => void onDelete()}>
            Delete
          </button>
          <button type="button" className="button small secondary" onClick={() => setMode('view')}>
            Cancel
          </button>
        </div>
      </li>
    )

  return (
    <li className={active ? 'conversation active' : 'conversation'}>
      <button
        type="button"
        className="conversation-open"
        aria-current={active ? 'true' : undefined}
        onClick={onOpen}
      >
        <span className="conversation-title" title={conversation.title}>
          {conversation.pinned && <Icon name="pin" size={12} title="Pinned" />} {conversation.title}
        </span>
        {conversation.hit?.messageId && <HitSnippet hit={conversation.hit} />}
        <span className="conversation-meta">
          {new Date(conversation.updatedAt).toLocaleDateString(undefined, { month: 'short', day: 'numeric' })}{' '}
          · {conversation.messageCount} message{conversation.messageCount === 1 ? '' : 's'}
        </span>
      </button>
      <div className="conversation-actions">
        <button
          type="button"
          className="icon-button"
          aria-label={`${conversation.pinned ? 'Unpin' : 'Pin'} ${conversation.title}`}
          aria-pressed={conversation.pinned}
          onClick={() => void onPin(!conversation.pinned)}
        >
          <Icon name="pin" size={14} />
        </button>
        <button
          type="button"
          className="icon-button"
          aria-label={`Rename ${conversation.title}`}
          onClick={() => setMode('rename')}
        >
          <Icon name="pencil" size={14} />
        </button>
        <button
          type="button"
          className="icon-button"
          aria-label={`Delete ${conversation.title}`}
          onClick={() => setMode('confirm-delete')}
        >
          <Icon name="trash" size={14} />
        </button>
      </div>
    </li>
  )
}
