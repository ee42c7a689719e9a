import { describe, expect, it } from 'vitest'
import { formatSpeed } from '../../../src/renderer/src/settings/formatSpeed'

const speed = (wordsPerSecond: number, gpu: string | null = null) => ({
  wordsPerSecond,
  tokensPerSecond: wordsPerSecond / 0.75,
  limitedBy: 'memory' as const,
  gpu,
})

describe('the speed estimate in words', () => {
  it('rounds to what a reader can use and says it is an estimate', () => {
    expect(formatSpeed(speed(12.6))).toBe('About 13 words per second on this computer (estimate)')
    expect(formatSpeed(speed(1.04))).toBe('About 1 word per second on this computer (estimate)')
    expect(formatSpeed(speed(1.46))).toBe('About 1.5 words per second on this computer (estimate)')
    expect(formatSpeed(speed(0.4))).toBe('Less than 1 word per second on this computer (estimate)')
  })

  it('says a GPU found here will likely make it faster', () => {
    expect(formatSpeed(speed(5, 'cuda'))).toBe(
      'About 5 words per second on this computer (estimate); likely faster with the cuda GPU found here',
    )
  })
})
