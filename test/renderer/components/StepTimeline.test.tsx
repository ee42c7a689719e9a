// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { StepTimeline, timelineOpenByDefault } from '../../../src/renderer/src/components/StepTimeline'
import type { AgentStep } from '../../../src/shared/ipc'

afterEach(cleanup)

const write = (status: AgentStep['status']): AgentStep => ({
  id: 's1',
  method: 'files.write_text',
  args: { path: '/a.txt' },
  status,
  startedAt: '2025-01-01T00:00:00.000Z',
})

const timeline = () => screen.getByText(/^\d+ steps?$/).closest('details') as HTMLDetailsElement

describe('step timeline open state', () => {
  it('is a function of the run: open while running, closed once finished without receipts', () => {
    expect(timelineOpenByDefault([write('running')], true)).toBe(true)
    expect(timelineOpenByDefault([write('ok')], false)).toBe(false)
    const receiptStep = { ...write('ok'), result: { sheet: 'S', range: 'A1', values: [[1]] } }
    expect(timelineOpenByDefault([receiptStep], false)).toBe(true)
    expect(timelineOpenByDefault([receiptStep], false)).toBe(timelineOpenByDefault([receiptStep], true))
  })

  it('looks the same for a finished run whether it mounted running or finished', () => {
    const { rerender } = render(<StepTimeline steps={[write('running')]} running={true} />)
    expect(timeline().open).toBe(true)
    rerender(<StepTimeline steps={[write('ok')]} running={false} />)
    expect(timeline().open).toBe(false)
    cleanup()
    render(<StepTimeline steps={[write('ok')]} running={false} />)
    expect(timeline().open).toBe(false)
  })

  it("keeps the user's toggle across updates of the run", async () => {
    const { rerender } = render(<StepTimeline steps={[write('running')]} running={true} />)
    await act(async () => {
      fireEvent.click(screen.getByText('1 step'))
    })
    expect(timeline().open).toBe(false)
    rerender(<StepTimeline steps={[write('ok')]} running={false} />)
    expect(timeline().open).toBe(false)
    await act(async () => {
      fireEvent.click(screen.getByText('1 step'))
    })
    expect(timeline().open).toBe(true)
  })
})

describe('a calendar receipt in the timeline', () => {
  const booked: AgentStep = {
    ...write('ok'),
    method: 'calendar.create_event',
    args: { calendar: '/calendar/team.ics' },
    result: {
      calendar: '/calendar/team.ics',
      event: {
        uid: 'u1@bureau',
        summary: 'Budget review',
        start: { local: '2026-07-14T10:00:00', time_zone: 'Europe/Paris', utc: '2026-07-14T08:00:00Z' },
        end: { local: '2026-07-14T11:30:00', time_zone: 'Europe/Paris', utc: '2026-07-14T09:30:00Z' },
        all_day: false,
        attendees: [{ email: 'marta@example.com', name: 'Marta' }],
      },
    },
  }

  it('opens the finished timeline and shows the event card under the step, not inside its collapsed details', () => {
    expect(timelineOpenByDefault([booked], false)).toBe(true)
    render(<StepTimeline steps={[booked]} running={false} />)
    expect(timeline().open).toBe(true)
    const card = screen.getByRole('article', { name: 'Event Budget review' })
    expect(card.closest('li')?.querySelector(':scope > details')?.contains(card)).toBe(false)
    expect(card.textContent).toContain('10:00–11:30 (Europe/Paris)')
    expect(card.textContent).toContain('With Marta')
  })
})

describe('a denied call', () => {
  it('counts as denied, not failed, and says so in words for the user', () => {
    const denied: AgentStep = {
      ...write('error'),
      error: 'Denied by the user: this call was not run. Go on without it, or ask the user.',
      approval: { outcome: 'denied', by: 'user' },
    }
    render(<StepTimeline steps={[denied]} running={false} />)
    expect(screen.getByText('1 step, 1 denied')).toBeTruthy()
    expect(screen.queryByText(/failed/)).toBeNull()
    expect(screen.getByText('You denied this call: it was not run.')).toBeTruthy()
    expect(screen.queryByText(/Go on without it/)).toBeNull()
    expect(screen.getByTestId('agent-step').className).toContain('step-denied')
  })
})
