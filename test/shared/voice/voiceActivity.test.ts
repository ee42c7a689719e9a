import { describe, expect, it } from 'vitest'
import { createVoiceActivityDetector, levelDb } from '../../../src/shared/voice'

/** Feeds one level every 20 ms for `ms` milliseconds starting at `from`; returns the events with times. */
function feed(
  vad: ReturnType<typeof createVoiceActivityDetector>,
  from: number,
  ms: number,
  db: number,
): Array<[string, number]> {
  const events: Array<[string, number]> = []
  for (let t = from; t < from + ms; t += 20) {
    const event = vad.update(db, t)
    if (event) events.push([event, t])
  }
  return events
}

describe('voice activity detection', () => {
  it('starts on sustained speech above the threshold and ends after the silence', () => {
    const vad = createVoiceActivityDetector({ thresholdDb: -45, silenceMs: 1500 })
    expect(feed(vad, 0, 1000, -70)).toEqual([])
    const start = feed(vad, 1000, 2000, -20)
    expect(start).toHaveLength(1)
    expect(start[0]?.[0]).toBe('speech-start')
    expect(vad.speaking).toBe(true)
    const end = feed(vad, 3000, 2000, -70)
    expect(end).toEqual([['speech-end', 2980 + 1500]])
    expect(vad.lastSpeechAt).toBe(2980)
    expect(vad.speaking).toBe(false)
  })

  it('ignores a click shorter than the minimum speech time', () => {
    const vad = createVoiceActivityDetector({ minSpeechMs: 120 })
    expect(feed(vad, 0, 60, -10)).toEqual([])
    expect(feed(vad, 60, 500, -80)).toEqual([])
  })

  it('a pause shorter than the silence keeps the utterance going', () => {
    const vad = createVoiceActivityDetector({ silenceMs: 1500 })
    feed(vad, 0, 500, -20)
    expect(feed(vad, 500, 1000, -80)).toEqual([])
    expect(feed(vad, 1500, 500, -20)).toEqual([])
    expect(vad.speaking).toBe(true)
  })

  it('a more sensitive threshold hears quieter speech', () => {
    const strict = createVoiceActivityDetector({ thresholdDb: -30 })
    const sensitive = createVoiceActivityDetector({ thresholdDb: -60 })
    expect(feed(strict, 0, 500, -50)).toEqual([])
    expect(feed(sensitive, 0, 500, -50)).toHaveLength(1)
  })

  it('measures RMS levels in dBFS', () => {
    expect(levelDb(new Float32Array(128).fill(1))).toBeCloseTo(0)
    expect(levelDb(new Float32Array(128).fill(0.01))).toBeCloseTo(-40)
    expect(levelDb(new Float32Array(128))).toBe(Number.NEGATIVE_INFINITY)
    expect(levelDb([])).toBe(Number.NEGATIVE_INFINITY)
  })
})
