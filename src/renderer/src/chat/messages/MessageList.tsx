import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useRef, useState } from 'react'
import type { ChatMessage } from '../../../../shared/ipc'
import { ConversationUsage } from '../conversations/ConversationUsage'
import type { VersionInfo } from './MessageActions'
import { MessageItem } from './MessageItem'
import { SINGLE } from './versions'

interface Props {
  /** The branch on screen, in order. */
  messages: ChatMessage[]
  busy: boolean
  versions?: ReadonlyMap<string, VersionInfo> | undefined
  /** A search hit: scrolled to and marked once. */
  focusId?: string | undefined
  onFocused?: (() => void) | undefined
}

const STICK_DISTANCE = 120

/**
 * The conversation, virtualized: only the messages near the viewport are in the DOM, so a
 * 1,000-message conversation scrolls as smoothly as a short one. It follows the stream while
 * the reader is at the bottom and stays put when they scrolled up.
 */
export function MessageList({ messages, busy, versions, focusId, onFocused }: Props) {
  const scroller = useRef<HTMLDivElement>(null)
  const atBottom = useRef(true)
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 140,
    overscan: 6,
    getItemKey: (index) => messages[index]?.id ?? index,
  })

  const last = messages[messages.length - 1]
  const followKey = `${messages.length}:${last?.text.length ?? 0}:${last?.steps.length ?? 0}:${last?.status ?? ''}`

  // biome-ignore lint/correctness/useExhaustiveDependencies: followKey is the trigger; the effect reads live refs
  useEffect(() => {
    const element = scroller.current
    if (!element || !atBottom.current || messages.length === 0) return
    virtualizer.scrollToIndex(messages.length - 1, { align: 'end' })
    const frame = requestAnimationFrame(() => {
      // The reader may have scrolled up in the meantime.
      if (atBottom.current) element.scrollTop = element.scrollHeight
    })
    return () => cancelAnimationFrame(frame)
  }, [followKey])

  const [marked, setMarked] = useState<string | undefined>()
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when a new hit arrives
  useEffect(() => {
    if (!focusId) return
    const index = messages.findIndex((m) => m.id === focusId)
    onFocused?.()
    if (index < 0) return
    atBottom.current = false
    setMarked(focusId)
    virtualizer.scrollToIndex(index, { align: 'center' })
  }, [focusId])

  const onScroll = () => {
    const element = scroller.current
    if (element)
      atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < STICK_DISTANCE
  }

  const items = virtualizer.getVirtualItems()
  return (
    <div className="message-scroller" ref={scroller} onScroll={onScroll} data-testid="message-scroller">
      <div
        role="feed"
        aria-label="Messages"
        aria-busy={busy}
        className="message-canvas"
        style={{ height: virtualizer.getTotalSize() }}
      >
        {items.map((item) => {
          const message = messages[item.index]
          if (!message) return null
          return (
            <article
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              className={message.id === marked ? 'message-row search-hit' : 'message-row'}
              data-search-hit={message.id === marked ? 'true' : undefined}
              aria-posinset={item.index + 1}
              aria-setsize={messages.length}
              aria-label={message.role === 'user' ? 'You' : 'Bureau'}
              style={{ transform: `translateY(${item.start}px)` }}
            >
              <MessageItem message={message} busy={busy} version={versions?.get(message.id) ?? SINGLE} />
            </article>
          )
        })}
      </div>
      {!busy && <ConversationUsage messages={messages} />}
    </div>
  )
}
