// Writes a tiny Piper voice as Piper publishes its voices: `<voice>.onnx` (an ONNX graph with Piper's
// inputs and output, no metadata) and `<voice>.onnx.json` (sample rate, espeak voice, phoneme map). Its
// "audio" is the phoneme ids scaled and repeated, not speech, but sherpa-onnx runs the whole path on it:
// espeak-ng phonemizes, the tokens map to ids, the model runs, samples come back; 256 per phoneme id.
//
//   npx tsx scripts/tinyPiperVoice.ts OUT_DIR [VOICE_NAME]
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { lengthField, varintField } from '../src/main/voice/piper/onnxModelFile'

/** Samples the model returns per phoneme id it is given. */
export const TINY_VOICE_SAMPLES_PER_ID = 256
export const TINY_VOICE_SAMPLE_RATE = 16_000

const FLOAT = 1
const INT64 = 7
const ATTRIBUTE_INT = 2

function tensor(name: string, type: number, dims: number[], raw: Buffer): Buffer {
  return Buffer.concat([
    ...dims.map((d) => varintField(1, d)),
    varintField(2, type),
    lengthField(8, name),
    lengthField(9, raw),
  ])
}

function int64s(values: number[]): Buffer {
  const out = Buffer.alloc(8 * values.length)
  values.forEach((v, i) => {
    out.writeBigInt64LE(BigInt(v), 8 * i)
  })
  return out
}

/** A ValueInfoProto of a tensor; a string dimension is symbolic. */
function valueInfo(name: string, type: number, dims: (number | string)[]): Buffer {
  const shape = Buffer.concat(
    dims.map((d) => lengthField(1, typeof d === 'number' ? varintField(1, d) : lengthField(2, d))),
  )
  const tensorType = Buffer.concat([varintField(1, type), lengthField(2, shape)])
  return Buffer.concat([lengthField(1, name), lengthField(2, lengthField(1, tensorType))])
}

function node(op: string, inputs: string[], outputs: string[], attributes: Buffer[] = []): Buffer {
  return Buffer.concat([
    ...inputs.map((i) => lengthField(1, i)),
    ...outputs.map((o) => lengthField(2, o)),
    lengthField(3, `${op.toLowerCase()}_${outputs[0]}`),
    lengthField(4, op),
    ...attributes.map((a) => lengthField(5, a)),
  ])
}

function intAttribute(name: string, value: number): Buffer {
  return Buffer.concat([lengthField(1, name), varintField(3, value), varintField(20, ATTRIBUTE_INT)])
}

export interface TinyPiperVoiceOptions {
  /** Extra bytes of an unused weight, to make the model as large as a test needs (e.g. to watch a download). */
  padBytes?: number
}

/** The model file (`<voice>.onnx`) of the tiny voice. */
export function tinyPiperModel(options: TinyPiperVoiceOptions = {}): Buffer {
  const scale = Buffer.alloc(4)
  scale.writeFloatLE(0.001)
  const initializers = [
    tensor('scale', FLOAT, [], scale),
    tensor('shape', INT64, [3], int64s([1, 1, -1])),
    tensor('repeats', INT64, [3], int64s([1, 1, TINY_VOICE_SAMPLES_PER_ID])),
  ]
  if (options.padBytes) {
    const floats = Math.ceil(options.padBytes / 4)
    initializers.push(tensor('padding', FLOAT, [floats], Buffer.alloc(floats * 4, 0x3c)))
  }
  const graph = Buffer.concat([
    lengthField(1, node('Cast', ['input'], ['ids_float'], [intAttribute('to', FLOAT)])),
    lengthField(1, node('Mul', ['ids_float', 'scale'], ['scaled'])),
    lengthField(1, node('Reshape', ['scaled', 'shape'], ['frames'])),
    lengthField(1, node('Tile', ['frames', 'repeats'], ['output'])),
    lengthField(2, 'tiny-piper'),
    ...initializers.map((t) => lengthField(5, t)),
    lengthField(11, valueInfo('input', INT64, [1, 'phonemes'])),
    lengthField(11, valueInfo('input_lengths', INT64, [1])),
    lengthField(11, valueInfo('scales', FLOAT, [3])),
    lengthField(12, valueInfo('output', FLOAT, [1, 1, 'samples'])),
  ])
  return Buffer.concat([
    varintField(1, 8), // ir_version
    lengthField(2, 'bureau-tiny-piper'),
    lengthField(7, graph),
    lengthField(8, Buffer.concat([lengthField(1, ''), varintField(2, 13)])), // opset 13
  ])
}

/** espeak-ng's phonemes for English, enough for test sentences; others are skipped by the phonemizer. */
const SYMBOLS = [
  '_',
  '^',
  '$',
  ' ',
  '!',
  "'",
  ',',
  '-',
  '.',
  ':',
  ';',
  '?',
  ...'abcdefhijklmnopqrstuvwxyz',
  ...'æçðøħŋœɐɑɒɓɔɕɖɗɘəɚɛɜɞɟɠɡɢɣɤɥɦɧɪɫɬɭɮɯɰɱɲɳɴɵɶɸɹɺɻɽɾʀʁʂʃʄʈʉʊʋʌʍʎʏʐʑʒʔʕʘʙʛʜʝʟʡʢʲˈˌːˑ˞βθχᵻ',
]

/** The config (`<voice>.onnx.json`) of the tiny voice, as Piper writes it. */
export function tinyPiperConfig(): string {
  const map: Record<string, number[]> = {}
  SYMBOLS.forEach((symbol, i) => {
    map[symbol] = [i]
  })
  return `${JSON.stringify(
    {
      audio: { sample_rate: TINY_VOICE_SAMPLE_RATE, quality: 'x_low' },
      espeak: { voice: 'en-us' },
      inference: { noise_scale: 0.667, length_scale: 1, noise_w: 0.8 },
      phoneme_type: 'espeak',
      phoneme_map: {},
      phoneme_id_map: map,
      num_symbols: SYMBOLS.length,
      num_speakers: 1,
      speaker_id_map: {},
      language: {
        code: 'en_US',
        family: 'en',
        region: 'US',
        name_native: 'English',
        name_english: 'English',
      },
      dataset: 'tiny',
    },
    null,
    2,
  )}\n`
}

/** Writes `<voice>.onnx` and `<voice>.onnx.json` into `dir`. */
export function writeTinyPiperVoice(dir: string, voice: string, options: TinyPiperVoiceOptions = {}): void {
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, `${voice}.onnx`), tinyPiperModel(options))
  writeFileSync(join(dir, `${voice}.onnx.json`), tinyPiperConfig())
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const out = process.argv[2]
  if (!out) {
    process.stderr.write('usage: tsx scripts/tinyPiperVoice.ts OUT_DIR [VOICE_NAME]\n')
    process.exit(2)
  }
  writeTinyPiperVoice(out, process.argv[3] ?? 'en_US-tiny-x_low')
}
