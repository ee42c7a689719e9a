// Writes a tiny llama-architecture GGUF (version 3) with seeded random weights and a vocabulary of its own:
// it says nothing meaningful, but node-llama-cpp loads it and the whole local-model path runs (load, chat
// template, tokenizer, generation, grammar, embeddings, cancellation) without a third-party model file.
//
//   npx tsx scripts/tinyLlamaModel.ts OUT.gguf
import { writeFileSync } from 'node:fs'
import { mulberry32, toHalf, writeWhenRun } from './seededWeights'

export interface TinyLlamaShape {
  embedding: number
  feedForward: number
  heads: number
  kvHeads: number
  layers: number
  /** The trained context the model reports: the local-model tests expect llama-2's 4096. */
  context: number
  seed: number
}

// Big enough to be a download worth resuming: the download tests cut every response at 64 KiB and give up
// after six cuts, so the file must be larger than 384 KiB (this shape writes about 550 KB).
const DEFAULT_SHAPE: TinyLlamaShape = {
  embedding: 48,
  feedForward: 128,
  heads: 4,
  kvHeads: 2,
  layers: 2,
  context: 4096,
  seed: 42,
}

/** GGUF metadata value types (gguf.h). */
const T = { u8: 0, i8: 1, u16: 2, i16: 3, u32: 4, i32: 5, f32: 6, bool: 7, string: 8, array: 9 } as const
/** ggml tensor types: norms in F32, matrices in F16 (as published llama models are). */
const GGML_F32 = 0
const GGML_F16 = 1
/** llama.cpp token types. */
const TOKEN = { normal: 1, unknown: 2, control: 3, byte: 6 } as const
const ALIGNMENT = 32
/** SentencePiece's word boundary, which the llama tokenizer puts in place of spaces. */
const SPACE = '\u2581'

const CHAT_TEMPLATE =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"

/** Words the vocabulary spells whole: common English, and the words of tool prompts and JSON schemas. */
const BARE_WORDS = (
  'name arguments description type string object number integer boolean array items properties required ' +
  'enum default path content text value values result error tool call done help id title query url file ' +
  'files sheet cell range format date time message role user assistant system reply json null true false'
).split(' ')
const WORDS = [
  ...BARE_WORDS,
  ...(
    'the be to of and a in that have it for not on with he as you do at this but his by from they we say her ' +
    'she or an will my one all would there their what so up out if about who get which go me when make can ' +
    'like no just him know take people into year your good some could them see other than then now look ' +
    'only come its over think also back after use two how our work first well way even new want because ' +
    'any these give day most us is are was were has had been may must should each every here where why ' +
    'more many much very own same such few find found need needs used using list lists read write writes ' +
    'create update delete append add remove open close save send show tell ask answer question step steps ' +
    'run runs ran stop start end next last before between under again never always only once both either ' +
    'document documents workbook workbooks spreadsheet cells column columns row rows table tables chart ' +
    'formula formulas sum total mail email emails inbox calendar event events browser page pages web search ' +
    'folder folders workspace model models local cloud voice receipt receipts method methods toolset ' +
    'toolsets input output line lines word words character characters size count first second third ' +
    'Bureau Say hello Hello What There This The You Use If When Call Return Answer one two three four five'
  ).split(' '),
]

interface Vocabulary {
  tokens: string[]
  scores: number[]
  types: number[]
  /** Ids the model never prefers (their output rows are zero): all but the text pieces and the newline. */
  silent: Set<number>
  bos: number
  eos: number
  eot: number
  unk: number
}

/**
 * Control tokens, the 256 byte tokens (so any text tokenizes), the printable ASCII characters, and a few
 * words with every prefix, so SentencePiece's pairwise merges can reach them; longer pieces score higher.
 */
function vocabulary(): Vocabulary {
  const tokens: string[] = []
  const scores: number[] = []
  const types: number[] = []
  const add = (text: string, type: number, score = 0): number => {
    tokens.push(text)
    scores.push(score)
    types.push(type)
    return tokens.length - 1
  }
  const unk = add('<unk>', TOKEN.unknown)
  const bos = add('<s>', TOKEN.control)
  const eos = add('</s>', TOKEN.control)
  add('<|im_start|>', TOKEN.control)
  const eot = add('<|im_end|>', TOKEN.control)
  for (let byte = 0; byte < 256; byte++) {
    add(`<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`, TOKEN.byte)
  }
  const pieces = new Set<string>([SPACE, SPACE.repeat(2), SPACE.repeat(4)])
  for (let code = 33; code < 127; code++) pieces.add(String.fromCharCode(code))
  // Every pair of lower-case letters, so a word the lists lack still takes about half a token per letter.
  const letters = 'abcdefghijklmnopqrstuvwxyz'
  for (const a of letters) for (const b of letters) pieces.add(a + b)
  for (const ending of ['ing', 'ion', 'tion', 'ed', 'er', 'es', 'ly', 'ent', 'ment', 'able', 'ness', 'ity']) {
    pieces.add(ending)
  }
  // After a space, a word grows one letter per merge; JSON keys and values follow a quote instead.
  for (const word of WORDS) {
    const spaced = SPACE + word
    for (let end = 2; end <= spaced.length; end++) pieces.add(spaced.slice(0, end))
  }
  for (const word of BARE_WORDS) {
    for (let end = 2; end <= word.length; end++) pieces.add(word.slice(0, end))
  }
  for (const piece of pieces) add(piece, TOKEN.normal, -1 / [...piece].length)
  // A reply of the random model stays readable text: no control, unknown or byte tokens but the newline.
  const silent = new Set(
    types.flatMap((type, id) => (type !== TOKEN.normal && tokens[id] !== '<0x0A>' ? [id] : [])),
  )
  return { tokens, scores, types, silent, bos, eos, eot, unk }
}

type Value =
  | { type: 'u32' | 'i32' | 'f32' | 'bool' | 'string'; value: number | string | boolean }
  | { type: 'array'; of: 'i32' | 'f32' | 'string'; values: (number | string)[] }

class Writer {
  private chunks: Buffer[] = []
  private length = 0
  push(b: Buffer): void {
    this.chunks.push(b)
    this.length += b.length
  }
  u32(value: number): void {
    const b = Buffer.alloc(4)
    b.writeUInt32LE(value)
    this.push(b)
  }
  u64(value: number): void {
    const b = Buffer.alloc(8)
    b.writeBigUInt64LE(BigInt(value))
    this.push(b)
  }
  string(text: string): void {
    const bytes = Buffer.from(text, 'utf8')
    this.u64(bytes.length)
    this.push(bytes)
  }
  scalar(type: 'u32' | 'i32' | 'f32' | 'bool' | 'string', value: number | string | boolean): void {
    if (type === 'string') {
      this.string(String(value))
    } else if (type === 'bool') {
      this.push(Buffer.from([value ? 1 : 0]))
    } else {
      const b = Buffer.alloc(4)
      if (type === 'u32') b.writeUInt32LE(Number(value))
      else if (type === 'i32') b.writeInt32LE(Number(value))
      else b.writeFloatLE(Number(value))
      this.push(b)
    }
  }
  keyValue(key: string, value: Value): void {
    this.string(key)
    if (value.type === 'array') {
      this.u32(T.array)
      this.u32(T[value.of])
      this.u64(value.values.length)
      for (const item of value.values) this.scalar(value.of, item)
    } else {
      this.u32(T[value.type])
      this.scalar(value.type, value.value)
    }
  }
  pad(): void {
    const rest = this.length % ALIGNMENT
    if (rest) this.push(Buffer.alloc(ALIGNMENT - rest))
  }
  done(): Buffer {
    return Buffer.concat(this.chunks)
  }
}

interface Tensor {
  name: string
  /** ggml order: the first dimension is the row length. */
  dims: number[]
  data: Float32Array
  half: boolean
}

function tensorBytes({ data, half }: Tensor): Buffer {
  if (!half) return Buffer.from(data.buffer, data.byteOffset, data.byteLength)
  const halves = new Uint16Array(data.length)
  for (let i = 0; i < data.length; i++) halves[i] = toHalf(data[i] ?? 0)
  // GGUF is little-endian, as is every machine node-llama-cpp ships binaries for.
  return Buffer.from(halves.buffer)
}

/** The model file's bytes; the same shape and seed give the same bytes. */
export function tinyLlamaModel(shape: Partial<TinyLlamaShape> = {}): Buffer {
  const { embedding, feedForward, heads, kvHeads, layers, context, seed } = { ...DEFAULT_SHAPE, ...shape }
  if (embedding % heads !== 0 || heads % kvHeads !== 0) {
    throw new Error(
      `tinyLlamaModel: ${embedding} dimensions do not split into ${heads} heads of ${kvHeads} groups`,
    )
  }
  const random = mulberry32(seed)
  const vocab = vocabulary()
  const headSize = embedding / heads
  const kvSize = headSize * kvHeads

  const tensors: Tensor[] = []
  const tensor = (name: string, dims: number[], fill: 'random' | 'one', scale = 0.3): Float32Array => {
    const data = new Float32Array(dims.reduce((a, b) => a * b, 1))
    if (fill === 'one') data.fill(1)
    else for (let i = 0; i < data.length; i++) data[i] = (random() * 2 - 1) * scale
    tensors.push({ name, dims, data, half: dims.length > 1 })
    return data
  }
  tensor('token_embd.weight', [embedding, vocab.tokens.length], 'random', 1)
  for (let layer = 0; layer < layers; layer++) {
    const blk = `blk.${layer}`
    tensor(`${blk}.attn_norm.weight`, [embedding], 'one')
    tensor(`${blk}.attn_q.weight`, [embedding, embedding], 'random')
    tensor(`${blk}.attn_k.weight`, [embedding, kvSize], 'random')
    tensor(`${blk}.attn_v.weight`, [embedding, kvSize], 'random')
    tensor(`${blk}.attn_output.weight`, [embedding, embedding], 'random')
    tensor(`${blk}.ffn_norm.weight`, [embedding], 'one')
    tensor(`${blk}.ffn_gate.weight`, [embedding, feedForward], 'random')
    tensor(`${blk}.ffn_up.weight`, [embedding, feedForward], 'random')
    tensor(`${blk}.ffn_down.weight`, [feedForward, embedding], 'random')
  }
  tensor('output_norm.weight', [embedding], 'one')
  // Wide logits, so sampling at any temperature keeps to the normal tokens; the rows of the control and byte
  // tokens are zero, so a random model ends a reply only at the token budget or when a grammar is complete.
  const output = tensor('output.weight', [embedding, vocab.tokens.length], 'random', 1)
  for (const id of vocab.silent) output.fill(0, id * embedding, (id + 1) * embedding)

  const metadata: [string, Value][] = [
    ['general.architecture', { type: 'string', value: 'llama' }],
    ['general.name', { type: 'string', value: 'Bureau tiny random llama' }],
    // 1: mostly F16.
    ['general.file_type', { type: 'u32', value: 1 }],
    ['general.alignment', { type: 'u32', value: ALIGNMENT }],
    ['llama.context_length', { type: 'u32', value: context }],
    ['llama.embedding_length', { type: 'u32', value: embedding }],
    ['llama.block_count', { type: 'u32', value: layers }],
    ['llama.feed_forward_length', { type: 'u32', value: feedForward }],
    ['llama.rope.dimension_count', { type: 'u32', value: headSize }],
    ['llama.rope.freq_base', { type: 'f32', value: 10000 }],
    ['llama.attention.head_count', { type: 'u32', value: heads }],
    ['llama.attention.head_count_kv', { type: 'u32', value: kvHeads }],
    ['llama.attention.layer_norm_rms_epsilon', { type: 'f32', value: 1e-5 }],
    ['llama.vocab_size', { type: 'u32', value: vocab.tokens.length }],
    ['tokenizer.ggml.model', { type: 'string', value: 'llama' }],
    ['tokenizer.ggml.tokens', { type: 'array', of: 'string', values: vocab.tokens }],
    ['tokenizer.ggml.scores', { type: 'array', of: 'f32', values: vocab.scores }],
    ['tokenizer.ggml.token_type', { type: 'array', of: 'i32', values: vocab.types }],
    ['tokenizer.ggml.bos_token_id', { type: 'u32', value: vocab.bos }],
    ['tokenizer.ggml.eos_token_id', { type: 'u32', value: vocab.eos }],
    ['tokenizer.ggml.eot_token_id', { type: 'u32', value: vocab.eot }],
    ['tokenizer.ggml.unknown_token_id', { type: 'u32', value: vocab.unk }],
    ['tokenizer.ggml.add_bos_token', { type: 'bool', value: true }],
    ['tokenizer.ggml.add_eos_token', { type: 'bool', value: false }],
    ['tokenizer.chat_template', { type: 'string', value: CHAT_TEMPLATE }],
  ]

  const w = new Writer()
  w.push(Buffer.from('GGUF', 'ascii'))
  w.u32(3)
  w.u64(tensors.length)
  w.u64(metadata.length)
  for (const [key, value] of metadata) w.keyValue(key, value)
  let offset = 0
  const datas = tensors.map(tensorBytes)
  tensors.forEach(({ name, dims, half }, i) => {
    w.string(name)
    w.u32(dims.length)
    for (const dim of dims) w.u64(dim)
    w.u32(half ? GGML_F16 : GGML_F32)
    w.u64(offset)
    offset += Math.ceil((datas[i]?.length ?? 0) / ALIGNMENT) * ALIGNMENT
  })
  w.pad()
  for (const data of datas) {
    w.push(data)
    w.pad()
  }
  return w.done()
}

export function writeTinyLlamaModel(path: string, shape: Partial<TinyLlamaShape> = {}): void {
  writeFileSync(path, tinyLlamaModel(shape))
}

writeWhenRun(import.meta.url, 'tsx scripts/tinyLlamaModel.ts OUT.gguf', (out) => writeTinyLlamaModel(out))
