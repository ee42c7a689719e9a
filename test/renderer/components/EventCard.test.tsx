// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { StepResult } from '../../../src/renderer/src/components/StepResult'

const receipt = {
  calendar: '/calendar/team.ics',
  event: {
    uid: 'u1@bureau',
    summary: 'Budget review',
    start: { local: '2026-07-14T10:00:00', time_zone: 'Europe/Paris', utc: '2026-07-14T08:00:00Z' },
    end: { local: '2026-07-14T11:00:00', time_zone: 'Europe/Paris', utc: '2026-07-14T09:00:00Z' },
    all_day: false,
    location: 'Room 1',
    attendees: [{ email: 'bob@example.com' }, { email: 'ann@example.com', name: 'Ann Lee' }],
  },
  stored: { path: '/calendar/team.ics' },
  conflicts: [{ summary: 'Standup' }],
}

describe('a calendar receipt in the step timeline', () => {
  afterEach(cleanup)

  it('shows the stored event as a card: day, time in its zone, title, place, attendees, overlaps', () => {
    render(<StepResult result={receipt} />)
    const card = screen.getByRole('article', { name: 'Event Budget review' })
    const day = new Date(Date.UTC(2026, 6, 14)).toLocaleDateString(undefined, {
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      timeZone: 'UTC',
    })
    expect(card.textContent?.startsWith(day)).toBe(true)
    expect(card.textContent).toContain('10:00–11:00 (Europe/Paris)')
    expect(card.textContent).toContain('Room 1')
    expect(card.textContent).toContain('With bob@example.com, Ann Lee')
    expect(card.textContent).toContain('Overlaps Standup')
    expect(card.textContent).toContain('/calendar/team.ics')
    expect(document.querySelector('.step-json')).toBeNull()
  })

  it('shows all-day events by their days, and other results still as JSON', () => {
    render(
      <StepResult
        result={{
          ...receipt,
          conflicts: undefined,
          event: {
            ...receipt.event,
            all_day: true,
            start: { local: '2026-08-03', time_zone: 'floating' },
            end: { local: '2026-08-07', time_zone: 'floating' },
          },
        }}
      />,
    )
    expect(screen.getByRole('article').textContent).toContain('All day, until')
    cleanup()
    render(<StepResult result={{ calendar: '/calendar/team.ics', uid: 'u1', removed: 1 }} />)
    expect(screen.queryByRole('article')).toBeNull()
    expect(document.querySelector('.step-json')?.textContent).toContain('"removed": 1')
  })
})
