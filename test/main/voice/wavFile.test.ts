import { describe, expect, it } from 'vitest'
import { concatWav } from '../../../src/main/voice'
import { normalizeWav, parseWav } from '../../../src/main/voice/wav/wavFile'

/** A mono 16-bit WAV of `samples` samples, optionally with the placeholder sizes of a streamed WAV. */
function wav(samples: number, sampleRate = 22_050, streamed = false): Uint8Array {
  const out = new Uint8Array(44 + samples * 2)
  const view = new DataView(out.buffer)
  const put = (at: number, s: string) => {
    for (let i = 0; i < 4; i++) out[at + i] = s.charCodeAt(i)
  }
  put(0, 'RIFF')
  view.setUint32(4, streamed ? 0x7ffff024 : 36 + samples * 2, true)
  put(8, 'WAVE')
  put(12, 'fmt ')
  view.setUint32(16, 16, true)
  view.setUint16(20, 1, true)
  view.setUint16(22, 1, true)
  view.setUint32(24, sampleRate, true)
  view.setUint32(28, sampleRate * 2, true)
  view.setUint16(32, 2, true)
  view.setUint16(34, 16, true)
  put(36, 'data')
  view.setUint32(40, streamed ? 0x7ffff000 : samples * 2, true)
  for (let i = 0; i < samples; i++) view.setInt16(44 + i * 2, i % 100, true)
  return out
}

describe('WAV files', () => {
  it('reads format and duration', () => {
    expect(parseWav(wav(22_050))).toMatchObject({
      sampleRate: 22_050,
      channels: 1,
      bitsPerSample: 16,
      durationMs: 1000,
    })
  })

  it('takes the data of a streamed WAV (placeholder sizes) to the end of the bytes and fixes the header', () => {
    const streamed = wav(11_025, 22_050, true)
    expect(parseWav(streamed).durationMs).toBe(500)
    const fixed = normalizeWav(streamed)
    const view = new DataView(fixed.buffer)
    expect(view.getUint32(4, true)).toBe(36 + 22_050)
    expect(view.getUint32(40, true)).toBe(22_050)
    expect(fixed.subarray(44)).toEqual(streamed.subarray(44))
  })

  it('joins clips with silence between them', () => {
    const joined = concatWav([wav(22_050), wav(11_025)], 100)
    expect(parseWav(joined).durationMs).toBeCloseTo(1600, 0)
    const view = new DataView(joined.buffer)
    // The gap is silent.
    expect(view.getInt16(44 + 22_050 * 2 + 100, true)).toBe(0)
  })

  it('refuses non-WAV audio and clips of different formats', () => {
    expect(() => parseWav(new TextEncoder().encode('ID3 mp3 data here...'))).toThrow(/not a WAV/)
    expect(() => concatWav([wav(10, 22_050), wav(10, 24_000)])).toThrow(/different formats/)
    expect(() => concatWav([])).toThrow(/no audio/)
  })
})
