/** Audio generated in code so tests need no fixture files: a sine (or silence) as WAV or raw PCM, silent MP3. */

export const speechSampleRate = 24000

export type SpeechFormat = 'wav' | 'pcm' | 'mp3'

export const speechContentTypes: Record<SpeechFormat, string> = {
  wav: 'audio/wav',
  pcm: 'audio/pcm',
  mp3: 'audio/mpeg',
}

/** 16-bit little-endian mono samples at 24 kHz (OpenAI's `pcm` format), with 10 ms fades against clicks. */
export function pcmSine(durationMs: number, frequencyHz: number): Buffer {
  const count = Math.round((speechSampleRate * durationMs) / 1000)
  const fade = Math.min(Math.round(speechSampleRate / 100), Math.floor(count / 2))
  const samples = Buffer.alloc(count * 2)
  for (let i = 0; i < count; i++) {
    const envelope = Math.min(1, i / Math.max(1, fade), (count - 1 - i) / Math.max(1, fade))
    const value = Math.sin((2 * Math.PI * frequencyHz * i) / speechSampleRate) * 0.25 * envelope
    samples.writeInt16LE(Math.round(value * 32767), i * 2)
  }
  return samples
}

export function wavFile(pcm: Buffer, sampleRate = speechSampleRate): Buffer {
  const header = Buffer.alloc(44)
  header.write('RIFF', 0, 'ascii')
  header.writeUInt32LE(36 + pcm.length, 4)
  header.write('WAVE', 8, 'ascii')
  header.write('fmt ', 12, 'ascii')
  header.writeUInt32LE(16, 16) // fmt chunk size
  header.writeUInt16LE(1, 20) // PCM
  header.writeUInt16LE(1, 22) // mono
  header.writeUInt32LE(sampleRate, 24)
  header.writeUInt32LE(sampleRate * 2, 28) // byte rate
  header.writeUInt16LE(2, 32) // block align
  header.writeUInt16LE(16, 34) // bits per sample
  header.write('data', 36, 'ascii')
  header.writeUInt32LE(pcm.length, 40)
  return Buffer.concat([header, pcm])
}

/**
 * MPEG-1 Layer III, 128 kbit/s, 44.1 kHz, mono frames whose side info is all zero: every decoder reads them
 * as silence. 417 bytes and 1152 samples (~26 ms) per frame.
 */
export function silentMp3(durationMs: number): Buffer {
  const frameBytes = 417
  const frameMs = (1152 / 44100) * 1000
  const frame = Buffer.alloc(frameBytes)
  frame.set([0xff, 0xfb, 0x90, 0xc4])
  const frames = Math.max(1, Math.ceil(durationMs / frameMs))
  return Buffer.concat(Array.from({ length: frames }, () => frame))
}

export function encodeSpeech(format: SpeechFormat, durationMs: number, frequencyHz: number): Buffer {
  if (format === 'mp3') return silentMp3(durationMs)
  const pcm = pcmSine(durationMs, frequencyHz)
  return format === 'pcm' ? pcm : wavFile(pcm)
}

export function isSpeechFormat(format: string): format is SpeechFormat {
  return format in speechContentTypes
}
