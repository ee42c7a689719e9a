import { AppError } from '../../../shared/errors'
import { encodeWav, toInt16 } from '../../../shared/voice'
import { parseWav } from './wavFile'

export { encodeWav, toInt16 }

/** What the offline recognizers take: 16 kHz mono. */
export const RECOGNIZER_RATE = 16_000

/** Mono samples in [-1, 1] with their rate, from a PCM (integer 8/16/24/32-bit or float 32-bit) WAV. */
export function decodeWav(bytes: Uint8Array): { samples: Float32Array; sampleRate: number } {
  const info = parseWav(bytes)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const format = view.getUint16(20, true)
  const bytesPer = info.bitsPerSample / 8
  if (![1, 2, 3, 4].includes(bytesPer) || info.channels < 1 || info.sampleRate < 1000)
    throw new AppError(
      'UNSUPPORTED',
      `The WAV audio is ${info.bitsPerSample}-bit, ${info.channels} channel(s) at ${info.sampleRate} Hz: only PCM of 8 to 32 bits is read.`,
    )
  // 3 = IEEE float; 0xfffe (extensible) carries its format further on, and 32-bit is then float in practice.
  const isFloat = format === 3 || (format === 0xfffe && bytesPer === 4 && view.getUint16(44, true) === 3)
  const frame = bytesPer * info.channels
  const frames = Math.floor(info.dataLength / frame)
  const samples = new Float32Array(frames)
  for (let i = 0; i < frames; i++) {
    let sum = 0
    for (let c = 0; c < info.channels; c++) {
      const at = info.dataOffset + i * frame + c * bytesPer
      if (isFloat) sum += view.getFloat32(at, true)
      else if (bytesPer === 1) sum += (view.getUint8(at) - 128) / 128
      else if (bytesPer === 2) sum += view.getInt16(at, true) / 32768
      else if (bytesPer === 3)
        sum += ((view.getUint8(at + 2) << 24) | (view.getUint16(at, true) << 8)) / 2 ** 31
      else sum += view.getInt32(at, true) / 2 ** 31
    }
    samples[i] = sum / info.channels
  }
  return { samples, sampleRate: info.sampleRate }
}

/**
 * Linear-interpolation resampling; going down, each output sample averages the input samples it
 * covers first, a box filter that keeps most of what lies above the new Nyquist out of speech.
 */
export function resample(samples: Float32Array, from: number, to: number): Float32Array {
  if (from === to) return samples
  const ratio = from / to
  const source = ratio > 1 ? boxFilter(samples, Math.round(ratio)) : samples
  const out = new Float32Array(Math.floor(samples.length / ratio))
  for (let i = 0; i < out.length; i++) {
    const at = i * ratio
    const left = Math.floor(at)
    const right = Math.min(left + 1, source.length - 1)
    const t = at - left
    out[i] = (source[left] ?? 0) * (1 - t) + (source[right] ?? 0) * t
  }
  return out
}

function boxFilter(samples: Float32Array, width: number): Float32Array {
  if (width <= 1) return samples
  const out = new Float32Array(samples.length)
  let sum = 0
  for (let i = 0; i < samples.length; i++) {
    sum += samples[i] ?? 0
    if (i >= width) sum -= samples[i - width] ?? 0
    out[i] = sum / Math.min(i + 1, width)
  }
  return out
}

/** Any PCM WAV as the recognizers' 16 kHz mono 16-bit samples. */
export function wavToRecognizerPcm(bytes: Uint8Array): Int16Array<ArrayBuffer> {
  const { samples, sampleRate } = decodeWav(bytes)
  return toInt16(resample(samples, sampleRate, RECOGNIZER_RATE))
}
