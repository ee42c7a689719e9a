import { useMutation, useQueryClient } from '@tanstack/react-query'
import { type KeyboardEvent, type RefObject, useDeferredValue, useEffect, useRef, useState } from 'react'
import { Icon } from '../../components/Icon'
import { queryKeys } from '../../ipc/queryKeys'
import { ImportButton } from '../composer/ImportButton'
import { CONVERSATIONS_TOGGLE_ID, isNarrow, useLayout } from '../layoutStore'
import { ConversationItem } from './ConversationItem'
import { useConversationActions, useConversations } from './conversationsApi'

interface Props {
  activeId: string | undefined
  /** `atMessage`: a search hit to show. */
  onOpen(id: string, atMessage?: string): void
  onNew(): void
  onDeleted(id: string): void
}

/** Focuses New chat or the search box when asked (Ctrl+K, the drawer's toggle). */
function useDrawerFocus(aside: RefObject<HTMLElement | null>) {
  const { focus, focusRequest } = useLayout()
  useEffect(() => {
    if (focusRequest === 0) return
    const target = focus === 'search' ? 'input[type="search"]' : '.new-chat'
    aside.current?.querySelector<HTMLElement>(target)?.focus()
  }, [focus, focusRequest, aside])
}

/** Esc closes the drawer (narrow windows) and gives focus back to its toggle. */
function closeOnEscape(event: KeyboardEvent) {
  if (event.key !== 'Escape' || event.defaultPrevented || !isNarrow()) return
  if (!useLayout.getState().drawerOpen) return
  event.preventDefault()
  useLayout.getState().closeDrawer()
  document.getElementById(CONVERSATIONS_TOGGLE_ID)?.focus()
}

/** New, import, full-text search, open (at the hit), rename, pin and delete conversations; a drawer below ~1000 px. */
export function ConversationList({ activeId, onOpen, onNew, onDeleted }: Props) {
  const conversations = useConversationActions()
  const aside = useRef<HTMLElement>(null)
  const drawerOpen = useLayout((s) => s.drawerOpen)
  const closeDrawer = useLayout((s) => s.closeDrawer)
  useDrawerFocus(aside)
  const [search, setSearch] = useState('')
  const query = useDeferredValue(search.trim())
  const queryClient = useQueryClient()
  const list = useConversations(query)
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.conversations.all() })
  const rename = useMutation({
    mutationFn: (input: { id: string; title: string }) => conversations.rename(input),
    onSettled: refresh,
  })
  const pin = useMutation({
    mutationFn: (input: { id: string; pinned: boolean }) => conversations.update(input),
    onSettled: refresh,
  })
  const remove = useMutation({
    mutationFn: (id: string) => conversations.remove(id),
    onSuccess: (_result, id) => onDeleted(id),
    onSettled: refresh,
  })

  return (
    <>
      {drawerOpen && (
        // biome-ignore lint/a11y/noStaticElementInteractions: a pointer shortcut; Esc closes the drawer by keyboard
        // biome-ignore lint/a11y/useKeyWithClickEvents: as above
        <div className="drawer-backdrop" onClick={closeDrawer} />
      )}
      <aside
        ref={aside}
        id="conversations"
        className={drawerOpen ? 'conversations open' : 'conversations'}
        aria-label="Conversations"
        onKeyDown={closeOnEscape}
      >
        <div className="conversations-head">
          <button
            type="button"
            className="button new-chat"
            title="New chat (Ctrl+N)"
            onClick={() => {
              closeDrawer()
              onNew()
            }}
          >
            <Icon name="plus" size={16} />
            New chat
          </button>
          <label className="search">
            <Icon name="search" size={14} />
            <input
              type="search"
              placeholder="Search conversations"
              aria-label="Search conversations"
              aria-keyshortcuts="Control+K Meta+K"
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
            closeDrawer()
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
              onOpen={() => {
                closeDrawer()
                onOpen(conversation.id, conversation.hit?.messageId)
              }}
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
    </>
  )
}
