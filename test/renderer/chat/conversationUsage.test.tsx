// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import {
  ConversationUsage,
  conversationUsage,
} from '../../../src/renderer/src/chat/conversations/ConversationUsage'
import type { ChatMessage } from '../../../src/shared/ipc'

function answer(id: string, usage?: ChatMessage['usage']): ChatMessage {
  return {
    id,
    role: 'assistant',
    text: 'ok',
    createdAt: '2026-01-01T00:00:00.000Z',
    status: 'done',
    attachments: [],
    steps: [],
    files: [],
    ...(usage && { usage }),
  }
}

afterEach(cleanup)

describe('the conversation total', () => {
  it('sums every answer that reports usage, cached tokens included', () => {
    const messages = [
      answer('a', { inputTokens: 1200, outputTokens: 30, cachedInputTokens: 1024 }),
      answer('b'),
      answer('c', { inputTokens: 800, outputTokens: 12 }),
    ]
    expect(conversationUsage(messages)).toEqual({
      inputTokens: 2000,
      outputTokens: 42,
      cachedInputTokens: 1024,
    })
    render(<ConversationUsage messages={messages} />)
    expect(screen.getByTestId('conversation-usage').textContent).toBe(
      `This conversation: ${(2000).toLocaleString()} in · 42 out · ${(1024).toLocaleString()} cached`,
    )
  })

  it('says nothing about cache when the provider reports none, and nothing at all without usage', () => {
    const { rerender } = render(
      <ConversationUsage messages={[answer('a', { inputTokens: 5, outputTokens: 1 })]} />,
    )
    expect(screen.getByTestId('conversation-usage').textContent).not.toContain('cached')
    rerender(<ConversationUsage messages={[answer('b')]} />)
    expect(screen.queryByTestId('conversation-usage')).toBeNull()
  })
})
