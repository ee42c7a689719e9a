// Writes a tiny whisper.cpp model (the legacy "ggml" format whisper.cpp loads) with seeded random
// weights: it transcribes nothing meaningful, but lets tests and the benchmark run the whole path
// (binding, model load, mel, encoder, decoder, cancellation) without a 75 MB download.
//
//   npx tsx scripts/tinyWhisperModel.ts OUT.bin
import { writeFileSync } from 'node:fs'
import { mulberry32, toHalf, writeWhenRun } from './seededWeights'

const GGML_FILE_MAGIC = 0x67676d6c
/** whisper.cpp decides "multilingual" from the vocabulary size: 51865 and up. */
const MULTILINGUAL_VOCAB = 51865

export interface TinyWhisperShape {
  state: number
  heads: number
  audioLayers: number
  textLayers: number
  seed: number
  /** Text context: the decoder writes at most half of it per 30 s window. */
  textCtx: number
}

const DEFAULT_SHAPE: TinyWhisperShape = {
  state: 16,
  heads: 2,
  audioLayers: 4,
  textLayers: 2,
  seed: 52,
  textCtx: 64,
}

class Writer {
  private chunks: Buffer[] = []
  i32(...values: number[]): void {
    const b = Buffer.alloc(4 * values.length)
    values.forEach((v, i) => {
      b.writeInt32LE(v, 4 * i)
    })
    this.chunks.push(b)
  }
  u32(value: number): void {
    const b = Buffer.alloc(4)
    b.writeUInt32LE(value, 0)
    this.chunks.push(b)
  }
  f16(values: Float32Array): void {
    const b = Buffer.alloc(2 * values.length)
    values.forEach((v, i) => {
      b.writeUInt16LE(toHalf(v), 2 * i)
    })
    this.chunks.push(b)
  }
  f32(values: Float32Array): void {
    this.chunks.push(Buffer.from(values.buffer, values.byteOffset, values.byteLength))
  }
  bytes(b: Buffer): void {
    this.chunks.push(b)
  }
  done(): Buffer {
    return Buffer.concat(this.chunks)
  }
}

/** The model file's bytes. */
export function tinyWhisperModel(shape: Partial<TinyWhisperShape> = {}): Buffer {
  const { state, heads, audioLayers, textLayers, seed, textCtx } = { ...DEFAULT_SHAPE, ...shape }
  const random = mulberry32(seed)
  const nMels = 80
  const audioCtx = 1500
  const w = new Writer()
  w.u32(GGML_FILE_MAGIC)
  // n_vocab, n_audio_ctx, n_audio_state, n_audio_head, n_audio_layer, n_text_ctx, n_text_state,
  // n_text_head, n_text_layer, n_mels, ftype (1: weight matrices and convolutions in f16, as published)
  w.i32(MULTILINGUAL_VOCAB, audioCtx, state, heads, audioLayers, textCtx, state, heads, textLayers, nMels, 1)

  // Mel filter bank: 80 filters over the 201 FFT bins, each a small triangle.
  const nFft = 201
  const filters = new Float32Array(nMels * nFft)
  for (let m = 0; m < nMels; m++) {
    const centre = Math.round(((m + 1) * (nFft - 1)) / (nMels + 1))
    for (let k = -2; k <= 2; k++) {
      const bin = centre + k
      if (bin >= 0 && bin < nFft) filters[m * nFft + bin] = (3 - Math.abs(k)) / 30
    }
  }
  w.i32(nMels, nFft)
  w.f32(filters)

  // A small vocabulary: the printable ASCII letters and a few words; whisper.cpp names the rest.
  const words = [
    ...Array.from({ length: 94 }, (_, i) => String.fromCharCode(33 + i)),
    ' ',
    ' the',
    ' a',
    ' and',
    ' Bureau',
    ' voice',
    ' offline',
  ]
  w.i32(words.length)
  for (const word of words) {
    const b = Buffer.from(word, 'utf8')
    w.u32(b.length)
    w.bytes(b)
  }

  const tensor = (name: string, ne: number[], fill: 'random' | 'one' | 'zero' = 'random', half = false) => {
    const count = ne.reduce((a, b) => a * b, 1)
    const data = new Float32Array(count)
    if (fill === 'one') data.fill(1)
    else if (fill === 'random') for (let i = 0; i < count; i++) data[i] = (random() - 0.5) * 0.2
    const nameBytes = Buffer.from(name, 'utf8')
    w.i32(ne.length, nameBytes.length, half ? 1 : 0, ...ne)
    w.bytes(nameBytes)
    if (half) w.f16(data)
    else w.f32(data)
  }
  const block = (prefix: string, cross: boolean) => {
    const layerNorm = (name: string) => {
      tensor(`${prefix}.${name}.weight`, [state], 'one')
      tensor(`${prefix}.${name}.bias`, [state], 'zero')
    }
    const attention = (name: string) => {
      tensor(`${prefix}.${name}.query.weight`, [state, state], 'random', true)
      tensor(`${prefix}.${name}.query.bias`, [state])
      tensor(`${prefix}.${name}.key.weight`, [state, state], 'random', true)
      tensor(`${prefix}.${name}.value.weight`, [state, state], 'random', true)
      tensor(`${prefix}.${name}.value.bias`, [state])
      tensor(`${prefix}.${name}.out.weight`, [state, state], 'random', true)
      tensor(`${prefix}.${name}.out.bias`, [state])
    }
    layerNorm('mlp_ln')
    tensor(`${prefix}.mlp.0.weight`, [state, 4 * state], 'random', true)
    tensor(`${prefix}.mlp.0.bias`, [4 * state])
    tensor(`${prefix}.mlp.2.weight`, [4 * state, state], 'random', true)
    tensor(`${prefix}.mlp.2.bias`, [state])
    layerNorm('attn_ln')
    attention('attn')
    if (cross) {
      layerNorm('cross_attn_ln')
      attention('cross_attn')
    }
  }

  tensor('encoder.positional_embedding', [state, audioCtx])
  tensor('encoder.conv1.weight', [3, nMels, state], 'random', true)
  tensor('encoder.conv1.bias', [1, state])
  tensor('encoder.conv2.weight', [3, state, state], 'random', true)
  tensor('encoder.conv2.bias', [1, state])
  tensor('encoder.ln_post.weight', [state], 'one')
  tensor('encoder.ln_post.bias', [state], 'zero')
  for (let i = 0; i < audioLayers; i++) block(`encoder.blocks.${i}`, false)
  tensor('decoder.positional_embedding', [state, textCtx])
  tensor('decoder.token_embedding.weight', [state, MULTILINGUAL_VOCAB], 'random', true)
  tensor('decoder.ln.weight', [state], 'one')
  tensor('decoder.ln.bias', [state], 'zero')
  for (let i = 0; i < textLayers; i++) block(`decoder.blocks.${i}`, true)
  return w.done()
}

export function writeTinyWhisperModel(path: string, shape: Partial<TinyWhisperShape> = {}): void {
  writeFileSync(path, tinyWhisperModel(shape))
}

writeWhenRun(import.meta.url, 'tsx scripts/tinyWhisperModel.ts OUT.bin', (out) => writeTinyWhisperModel(out))
