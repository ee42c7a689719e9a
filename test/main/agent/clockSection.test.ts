import { describe, expect, it } from 'vitest'
import { clockSection } from '../../../src/main/agent/prompt/composeSystemPrompt'

describe('the system prompt’s date and zone', () => {
  it('tells the date in the user’s zone, not the server’s', () => {
    const now = () => new Date('2026-12-07T23:30:00Z')
    expect(clockSection({ timeZone: 'Europe/Paris', now })).toContain(
      'Today is Tuesday, 8 December 2026 (2026-12-08); the user’s time zone is Europe/Paris.',
    )
    expect(clockSection({ timeZone: 'America/New_York', now })).toContain(
      'Monday, 7 December 2026 (2026-12-07)',
    )
  })

  it('falls back to UTC for an unknown zone and says nothing without a clock', () => {
    expect(clockSection({ timeZone: 'Mars/Base', now: () => new Date('2026-01-01T12:00:00Z') })).toContain(
      '(2026-01-01); the user’s time zone is UTC.',
    )
    expect(clockSection(undefined)).toBe('')
  })
})
