import { describe, expect, it } from 'vitest'
import { selectInteractionMode } from '../../../src/shared/settings'

describe('interaction mode', () => {
  it.each([
    [{ explicit: 'api' as const, contextWindow: 8_000 }, 'api'],
    [{ explicit: 'cli' as const, contextWindow: 1_000_000 }, 'cli'],
    [{ explicit: 'auto' as const, contextWindow: 127_999 }, 'cli'],
    [{ contextWindow: 128_000 }, 'api'],
    [{ contextWindow: 200_000 }, 'api'],
    [{ contextWindow: 32_768 }, 'cli'],
    [{}, 'cli'],
    [{ contextWindow: 0 }, 'cli'],
    [{ contextWindow: Number.NaN }, 'cli'],
  ])('%j -> %s', (input, mode) => {
    expect(selectInteractionMode(input)).toBe(mode)
  })
})
