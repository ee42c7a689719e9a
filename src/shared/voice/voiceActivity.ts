/** Level-based voice activity detection: pure, fed with levels and times, so it is testable anywhere. */

export interface VoiceActivityOptions {
  /** Level above which sound counts as speech (default -45 dBFS). */
  thresholdDb?: number
  /** Silence that ends an utterance (default 1,500 ms). */
  silenceMs?: number
  /** Sound must stay above the threshold this long to count as speech (default 120 ms): clicks do not. */
  minSpeechMs?: number
}

export type VoiceActivityEvent = 'speech-start' | 'speech-end'

export interface VoiceActivityDetector {
  /** One level reading; returns the event it caused, if any. */
  update(levelDb: number, nowMs: number): VoiceActivityEvent | undefined
  readonly speaking: boolean
  /** When the last utterance ended by silence: the end of speech, not the end of the silence. */
  readonly lastSpeechAt: number | undefined
  reset(): void
}

export const DEFAULT_VAD = { thresholdDb: -45, silenceMs: 1_500, minSpeechMs: 120 } as const

export function createVoiceActivityDetector(options: VoiceActivityOptions = {}): VoiceActivityDetector {
  const thresholdDb = options.thresholdDb ?? DEFAULT_VAD.thresholdDb
  const silenceMs = options.silenceMs ?? DEFAULT_VAD.silenceMs
  const minSpeechMs = options.minSpeechMs ?? DEFAULT_VAD.minSpeechMs
  let speaking = false
  let loudSince: number | undefined
  let lastLoud: number | undefined

  return {
    update(levelDb, nowMs) {
      const loud = levelDb >= thresholdDb
      if (!speaking) {
        if (!loud) {
          loudSince = undefined
          return undefined
        }
        loudSince ??= nowMs
        if (nowMs - loudSince < minSpeechMs) return undefined
        speaking = true
        lastLoud = nowMs
        return 'speech-start'
      }
      if (loud) {
        lastLoud = nowMs
        return undefined
      }
      if (lastLoud !== undefined && nowMs - lastLoud >= silenceMs) {
        speaking = false
        loudSince = undefined
        return 'speech-end'
      }
      return undefined
    },
    get speaking() {
      return speaking
    },
    get lastSpeechAt() {
      return lastLoud
    },
    reset() {
      speaking = false
      loudSince = undefined
      lastLoud = undefined
    },
  }
}

/** The RMS level of PCM samples in dBFS (-Infinity for silence). */
export function levelDb(samples: ArrayLike<number>): number {
  if (samples.length === 0) return Number.NEGATIVE_INFINITY
  let sum = 0
  for (let i = 0; i < samples.length; i++) {
    const v = samples[i] ?? 0
    sum += v * v
  }
  const rms = Math.sqrt(sum / samples.length)
  return rms > 0 ? 20 * Math.log10(rms) : Number.NEGATIVE_INFINITY
}
