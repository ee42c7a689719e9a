import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useDeferredValue, useState } from 'react'
import { Icon } from '../components/Icon'
import { bureau } from '../ipc/bureauClient'
import { ConversationItem } from './ConversationItem'
import { ImportButton } from './ImportButton'

interface Props {
  activeId: string | undefined
  /** `atMessage`: a search hit to show. */
  onOpen(id: string, atMessage?: string): void
  onNew(): void
  onDeleted(id: string): void
}

/** New, import, full-text search, open (at the hit), rename, pin and delete conversations. */
export function ConversationList({ activeId, onOpen, onNew, onDeleted }: Props) {
  const [search, setSearch] = useState('')
  const query = useDeferredValue(search.trim())
  const queryClient = useQueryClient()
  const list = useQuery({
    queryKey: ['conversations', query],
    queryFn: () => bureau.invoke('conversations.list', query ? { query } : {}),
    retry: false,
  })
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['conversations'] })
  const rename = useMutation({
    mutationFn: (input: { id: string; title: string }) => bureau.invoke('conversations.rename', input),
    onSettled: refresh,
  })
  const pin = useMutation({
    mutationFn: (input: { id: string; pinned: boolean }) => bureau.invoke('conversations.update', input),
    onSettled: refresh,
  })
  const remove = useMutation({
    mutationFn: (id: string) => bureau.invoke('conversations.delete', { id }),
    onSuccess: (_result, id) => onDeleted(id),
    onSettled: refresh,
  })

  return (
    <aside className="conversations" aria-label="Conversations">
      <div className="conversations-head">
        <button type="button" className="button new-chat" onClick={onNew}>
          <Icon name="plus" size={16} />
          New chat
        </button>
        <label className="search">
          <Icon name="search" size={14} />
          <input
            type="search"
            placeholder="Search conversations"
            aria-label="Search conversations"
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
          />
        </label>
      </div>
      {list.isError && (
        <p className="conversations-note muted">
          Saved conversations are not available: {list.error.message}
        </p>
      )}
      <ImportButton
        onImported={(id) => {
          void refresh()
          onOpen(id)
        }}
      />
      {(rename.error ?? remove.error ?? pin.error) && (
        <p className="conversations-note error-text" role="alert">
          {(rename.error ?? remove.error ?? pin.error)?.message}
        </p>
      )}
      {list.data && list.data.length === 0 && (
        <p className="conversations-note muted">
          {query ? 'No conversation has that in its title or messages.' : 'No conversations yet.'}
        </p>
      )}
      <ul className="conversation-list">
        {list.data?.map((conversation) => (
          <ConversationItem
            key={conversation.id}
            conversation={conversation}
            active={conversation.id === activeId}
            onOpen={() => onOpen(conversation.id, conversation.hit?.messageId)}
            onPin={async (pinned) => {
              await pin.mutateAsync({ id: conversation.id, pinned }).catch(() => {})
            }}
            onRename={async (title) => {
              await rename.mutateAsync({ id: conversation.id, title }).catch(() => {})
            }}
            onDelete={async () => {
              await remove.mutateAsync(conversation.id).catch(() => {})
            }}
          />
        ))}
      </ul>
    </aside>
  )
}
