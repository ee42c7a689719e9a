// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { SamplingPanel } from '../../../src/renderer/src/chat/SamplingPanel'
import { BureauProvider } from '../../../src/renderer/src/ipc/BureauProvider'
import type { Conversation, ProviderSummary } from '../../../src/shared/ipc'
import { fakeBureau } from '../../support/fakeBureau'

const conversation: Conversation = {
  id: 'c1',
  title: 'Budget',
  createdAt: '2026-12-07T10:00:00.000Z',
  updatedAt: '2026-12-07T10:00:00.000Z',
  pinned: false,
  messages: [],
}
const provider = {
  id: 'scripted',
  name: 'Office LLM',
  active: true,
  temperature: 0.7,
  maxOutputTokens: null,
} as unknown as ProviderSummary

function setup(onSaved = vi.fn(), onClose = vi.fn()) {
  const bureau = fakeBureau({
    'providers.list': () => [provider],
    'conversations.update': (input) => ({
      ...conversation,
      ...(input.generation && { generation: input.generation }),
    }),
  })
  render(
    <BureauProvider client={bureau}>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <SamplingPanel conversation={conversation} onSaved={onSaved} onClose={onClose} onProblem={vi.fn()} />
      </QueryClientProvider>
    </BureauProvider>,
  )
  return { bureau, onSaved, onClose }
}

describe('a conversation’s temperature and longest answer', () => {
  afterEach(cleanup)

  it('shows the provider’s defaults, every error at once as typed, and focuses the first on Save without saving', async () => {
    const { bureau } = setup()
    expect(await screen.findByText('Office LLM default: 0.7')).toBeTruthy()
    expect(screen.getByText('Empty: Office LLM’s default length')).toBeTruthy()
    const user = userEvent.setup()
    await user.type(screen.getByLabelText('Temperature'), '2.5')
    await user.type(screen.getByLabelText('Max output tokens'), '12.5')
    expect(screen.getByText('At most 2.')).toBeTruthy()
    expect(screen.getByText('A whole number of tokens.')).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(document.activeElement).toBe(screen.getByLabelText('Temperature'))
    expect(bureau.callsTo('conversations.update')).toEqual([])
  })

  it('saves valid values to the conversation and closes', async () => {
    const { bureau, onSaved, onClose } = setup()
    const user = userEvent.setup()
    await user.type(screen.getByLabelText('Temperature'), '0.2')
    await user.type(screen.getByLabelText('Max output tokens'), 'many')
    expect(screen.getByText('Enter a number.')).toBeTruthy()
    await user.clear(screen.getByLabelText('Max output tokens'))
    await user.type(screen.getByLabelText('Max output tokens'), '800')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(bureau.callsTo('conversations.update')).toEqual([
      { id: 'c1', generation: { temperature: 0.2, maxOutputTokens: 800 } },
    ])
    expect(onSaved.mock.calls[0]?.[0].generation).toEqual({ temperature: 0.2, maxOutputTokens: 800 })
  })
})
