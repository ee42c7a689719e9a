// @vitest-environment happy-dom
import { act, renderHook } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { useWholeNumberCheck } from '../../../src/renderer/src/settings/useWholeNumberCheck'

function check(text: string, min: number, max: number) {
  const { result } = renderHook(() => useWholeNumberCheck(text, min, max))
  let ok = false
  act(() => {
    ok = result.current.validate()
  })
  return { ok, error: result.current.error }
}

describe('useWholeNumberCheck', () => {
  it('passes whole numbers within the bounds, the bounds included', () => {
    expect(check('0', 0, 10_000)).toEqual({ ok: true, error: undefined })
    expect(check(' 500 ', 1, 500)).toEqual({ ok: true, error: undefined })
  })

  it('refuses empty, fractional, non-numeric and out-of-range text with the bounds in the message', () => {
    for (const text of ['', '  ', '2.5', 'ten', '-1', '10001']) {
      expect(check(text, 0, 10_000)).toEqual({
        ok: false,
        error: 'Enter a whole number between 0 and 10,000.',
      })
    }
    expect(check('999', 1000, 2_000_000).error).toBe('Enter a whole number between 1,000 and 2,000,000.')
  })
})

describe('useWholeNumberCheck while typing', () => {
  it('shows the message as soon as the text changes and drops it as soon as the text is right', () => {
    const { result, rerender } = renderHook(({ text }) => useWholeNumberCheck(text, 5, 3600), {
      initialProps: { text: '120' },
    })
    expect(result.current.error).toBeUndefined()
    rerender({ text: '1' })
    expect(result.current.error).toBe('Enter a whole number between 5 and 3,600.')
    rerender({ text: '10' })
    expect(result.current.error).toBeUndefined()
  })
})
