import { AppError } from '../../../shared/errors'

/** The format of 16-bit (or other) PCM WAV audio, and where its samples are. */
export interface WavInfo {
  sampleRate: number
  channels: number
  bitsPerSample: number
  /** Byte offset of the sample data. */
  dataOffset: number
  /** Bytes of sample data actually present. */
  dataLength: number
  durationMs: number
}

const ascii = (bytes: Uint8Array, at: number) => String.fromCharCode(...bytes.subarray(at, at + 4))

/**
 * Reads a RIFF/WAVE header. Streamed WAVs (espeak-ng --stdout, many TTS servers) carry placeholder
 * sizes (0x7fffffff, 0xffffffff): the data chunk is then taken to run to the end of the bytes.
 */
export function parseWav(bytes: Uint8Array): WavInfo {
  if (bytes.length < 12 || ascii(bytes, 0) !== 'RIFF' || ascii(bytes, 8) !== 'WAVE')
    throw new AppError('UNSUPPORTED', 'The audio is not a WAV file.')
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let format: Omit<WavInfo, 'dataOffset' | 'dataLength' | 'durationMs'> | undefined
  let at = 12
  while (at + 8 <= bytes.length) {
    const id = ascii(bytes, at)
    const size = view.getUint32(at + 4, true)
    const body = at + 8
    if (id === 'fmt ' && body + 16 <= bytes.length) {
      format = {
        channels: view.getUint16(body + 2, true),
        sampleRate: view.getUint32(body + 4, true),
        bitsPerSample: view.getUint16(body + 14, true),
      }
    } else if (id === 'data') {
      if (!format) break
      const dataLength = Math.min(size, bytes.length - body)
      const bytesPerSecond = format.sampleRate * format.channels * (format.bitsPerSample / 8)
      return {
        ...format,
        dataOffset: body,
        dataLength,
        durationMs: bytesPerSecond > 0 ? (dataLength / bytesPerSecond) * 1000 : 0,
      }
    }
    at = body + size + (size % 2)
  }
  throw new AppError('UNSUPPORTED', 'The WAV audio has no format or data chunk.')
}

function header(info: Omit<WavInfo, 'dataOffset' | 'durationMs'>): Uint8Array {
  const out = new Uint8Array(44)
  const view = new DataView(out.buffer)
  const write = (at: number, text: string) => {
    for (let i = 0; i < 4; i++) out[at + i] = text.charCodeAt(i)
  }
  const blockAlign = info.channels * (info.bitsPerSample / 8)
  write(0, 'RIFF')
  view.setUint32(4, 36 + info.dataLength, true)
  write(8, 'WAVE')
  write(12, 'fmt ')
  view.setUint32(16, 16, true)
  view.setUint16(20, 1, true)
  view.setUint16(22, info.channels, true)
  view.setUint32(24, info.sampleRate, true)
  view.setUint32(28, info.sampleRate * blockAlign, true)
  view.setUint16(32, blockAlign, true)
  view.setUint16(34, info.bitsPerSample, true)
  write(36, 'data')
  view.setUint32(40, info.dataLength, true)
  return out
}

/** A canonical 44-byte-header WAV with the real sizes (players and browsers reject placeholder sizes). */
export function normalizeWav(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const info = parseWav(bytes)
  const data = bytes.subarray(info.dataOffset, info.dataOffset + info.dataLength)
  const out = new Uint8Array(44 + data.length)
  out.set(header(info), 0)
  out.set(data, 44)
  return out
}

/** Joins WAV clips of one format into one file, with `gapMs` of silence between clips. */
export function concatWav(clips: readonly Uint8Array[], gapMs = 0): Uint8Array<ArrayBuffer> {
  const parsed = clips.map((clip) => ({ clip, info: parseWav(clip) }))
  const first = parsed[0]?.info
  if (!first) throw new AppError('VALIDATION_FAILED', 'There is no audio to join.')
  for (const { info } of parsed) {
    if (
      info.sampleRate !== first.sampleRate ||
      info.channels !== first.channels ||
      info.bitsPerSample !== first.bitsPerSample
    )
      throw new AppError('UNSUPPORTED', 'The audio clips have different formats and cannot be joined.')
  }
  const blockAlign = first.channels * (first.bitsPerSample / 8)
  const gap = Math.round((first.sampleRate * gapMs) / 1000) * blockAlign
  const dataLength = parsed.reduce((sum, p) => sum + p.info.dataLength, 0) + gap * (parsed.length - 1)
  const out = new Uint8Array(44 + dataLength)
  out.set(header({ ...first, dataLength }), 0)
  let at = 44
  parsed.forEach(({ clip, info }, i) => {
    out.set(clip.subarray(info.dataOffset, info.dataOffset + info.dataLength), at)
    at += info.dataLength + (i < parsed.length - 1 ? gap : 0)
  })
  return out
}
