// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { BureauProvider } from '../../../src/renderer/src/ipc/BureauProvider'
import type { EvalScore } from '../../../src/shared/ipc'
import { fakeBureau } from '../../support/fakeBureau'

const invoke = vi.hoisted(() => vi.fn())
const bureau = fakeBureau({}, invoke)

const { EvalScores } = await import('../../../src/renderer/src/settings/EvalScores')

function setup(providerId: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <BureauProvider client={bureau}>
      <QueryClientProvider client={client}>
        <EvalScores providerId={providerId} />
      </QueryClientProvider>
    </BureauProvider>,
  )
}

const score = (s: Partial<EvalScore>): EvalScore => ({
  provider: 'ollama',
  model: 'qwen3:8b',
  interactionMode: 'cli',
  passed: 17,
  total: 24,
  date: '2026-12-01T10:00:00.000Z',
  taskSetVersion: '1',
  taskSetDigest: 'abcdef123456',
  partial: false,
  ...s,
})

describe('Eval score in Settings → Model provider', () => {
  afterEach(() => {
    cleanup()
    invoke.mockReset()
  })

  it('shows the score, date and task set of each evaluated model of the provider', async () => {
    invoke.mockResolvedValue([
      score({}),
      score({ model: 'llama3.2:3b', passed: 6, partial: true }),
      score({ provider: 'openai', model: 'gpt-4.1-mini', passed: 23 }),
    ])
    setup('ollama')
    const first = await screen.findByText('qwen3:8b')
    expect(first.parentElement?.textContent).toMatch(
      /17\/24 tasks \(71%\) · .*2026.* · task set 1 \(abcdef123456\)/,
    )
    expect(screen.getByText('llama3.2:3b').parentElement?.textContent).toMatch(
      /6\/24 tasks \(25%\).*some tasks only/,
    )
    expect(screen.queryByText('gpt-4.1-mini')).toBeNull()
    expect(invoke).toHaveBeenCalledWith('eval.lastResults')
  })

  it('explains how to run an eval when none was run for the provider', async () => {
    invoke.mockResolvedValue([score({ provider: 'openai' })])
    setup('ollama')
    expect(await screen.findByText(/No eval run yet/)).toBeTruthy()
    expect(screen.getByText('bureau eval --provider ollama')).toBeTruthy()
  })
})
