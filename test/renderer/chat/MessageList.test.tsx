// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { MessageList } from '../../../src/renderer/src/chat/messages/MessageList'
import { BureauProvider } from '../../../src/renderer/src/ipc/BureauProvider'
import type { ChatMessage } from '../../../src/shared/ipc'
import { fakeBureau } from '../../support/fakeBureau'

const VIEWPORT = 800
const ROW = 140 // the list's size estimate, so measured and estimated positions agree

function messages(count: number): ChatMessage[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `m${i}`,
    role: i % 2 === 0 ? 'user' : 'assistant',
    text: `Message number ${i}`,
    createdAt: '2025-01-01T00:00:00.000Z',
    status: 'done',
    attachments: [],
    steps: [],
    files: [],
  }))
}

// happy-dom does no layout: give the scroller a viewport and every row a height.
const saved: Record<string, PropertyDescriptor | undefined> = {}
beforeAll(() => {
  for (const key of ['clientHeight', 'offsetHeight', 'scrollHeight'] as const)
    saved[key] = Object.getOwnPropertyDescriptor(HTMLElement.prototype, key)
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains('message-scroller') ? VIEWPORT : 0
    },
  })
  Object.defineProperty(HTMLElement.prototype, 'scrollHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains('message-scroller') ? 1000 * ROW : 0
    },
  })
  Object.defineProperty(HTMLElement.prototype, 'offsetHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains('message-row') ? ROW : 0
    },
  })
})
afterAll(() => {
  for (const [key, descriptor] of Object.entries(saved))
    if (descriptor) Object.defineProperty(HTMLElement.prototype, key, descriptor)
})
afterEach(cleanup)

function renderList(list: ChatMessage[]) {
  return render(
    <BureauProvider client={fakeBureau({})}>
      <QueryClientProvider client={new QueryClient()}>
        <MessageList messages={list} busy={false} />
      </QueryClientProvider>
    </BureauProvider>,
  )
}

describe('MessageList with 1,000 messages', () => {
  it('keeps only the messages near the viewport in the DOM, starting at the newest', async () => {
    renderList(messages(1000))
    const scroller = screen.getByTestId('message-scroller')
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 30))
      // A browser fires scroll after the list jumps to the end; happy-dom does not.
      fireEvent.scroll(scroller)
      await new Promise((resolve) => setTimeout(resolve, 10))
    })
    expect(scroller.scrollTop).toBeGreaterThan(990 * ROW - VIEWPORT)
    const rows = screen.getAllByRole('article')
    expect(rows.length).toBeGreaterThan(0)
    expect(rows.length).toBeLessThan(40)
    expect(screen.getByText('Message number 999')).toBeTruthy()
    expect(screen.queryByText('Message number 0')).toBeNull()
    expect(rows[0]?.getAttribute('aria-setsize')).toBe('1000')
    expect(screen.getByRole('feed', { name: 'Messages' })).toBeTruthy()
  })

  it('renders other messages when scrolled, still only a window of them', async () => {
    renderList(messages(1000))
    const scroller = screen.getByTestId('message-scroller')
    await act(async () => {
      scroller.scrollTop = 500 * ROW
      fireEvent.scroll(scroller)
      await new Promise((resolve) => setTimeout(resolve, 20))
    })
    const rows = screen.getAllByRole('article')
    const positions = rows.map((r) => Number(r.getAttribute('aria-posinset')))
    expect(positions).toContain(501)
    expect(rows.length).toBeLessThan(40)
    expect(screen.getByText('Message number 500')).toBeTruthy()
  })
})
