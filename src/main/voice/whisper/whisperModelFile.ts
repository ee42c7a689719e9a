import { open } from 'node:fs/promises'
import { AppError } from '../../../shared/errors'

const GGML_MAGIC = 0x67676d6c
/** ggml tensor types whisper.cpp models are published in: [elements per block, bytes per block]. */
const TYPE_SIZES: Record<number, [number, number]> = {
  0: [1, 4], // f32
  1: [1, 2], // f16
  2: [32, 18], // q4_0
  3: [32, 20], // q4_1
  6: [32, 22], // q5_0
  7: [32, 24], // q5_1
  8: [32, 34], // q8_0
}

export interface WhisperModelInfo {
  vocab: number
  audioLayers: number
  textLayers: number
  multilingual: boolean
  tensors: number
  sizeBytes: number
}

function wrong(path: string, why: string): AppError {
  return new AppError(
    'VALIDATION_FAILED',
    `${path} is not a usable whisper.cpp model: ${why}. Download it again (\`bureau models pull whisper-base\`) or choose a ggml-*.bin file from whisper.cpp.`,
  )
}

/**
 * Walks a whisper.cpp (ggml) model file: header, mel filters, vocabulary and every tensor's header,
 * seeking over the weights, so a truncated or foreign file is named before the native loader (which
 * only says "failed to initialize") sees it.
 */
export async function checkWhisperModel(path: string): Promise<WhisperModelInfo> {
  const file = await open(path, 'r').catch((error: NodeJS.ErrnoException) => {
    throw new AppError(
      'NOT_FOUND',
      `The whisper model ${path} cannot be read (${error.code === 'ENOENT' ? 'no such file' : (error.code ?? 'error')}).`,
      { cause: error },
    )
  })
  try {
    const { size } = await file.stat()
    let at = 0
    const read = async (bytes: number): Promise<DataView> => {
      if (at + bytes > size)
        throw wrong(path, `it ends after ${size} bytes, in the middle of its data (truncated)`)
      const buffer = Buffer.alloc(bytes)
      await file.read(buffer, 0, bytes, at)
      at += bytes
      return new DataView(buffer.buffer, buffer.byteOffset, bytes)
    }
    const int32s = async (count: number) => {
      const view = await read(4 * count)
      return Array.from({ length: count }, (_, i) => view.getInt32(4 * i, true))
    }
    if (size < 48) throw wrong(path, `it has only ${size} bytes`)
    const [magic] = await int32s(1)
    if ((magic ?? 0) >>> 0 !== GGML_MAGIC) {
      const head = Buffer.alloc(4)
      await file.read(head, 0, 4, 0)
      const kind = head.toString('latin1') === 'GGUF' ? 'a GGUF file (a chat model?)' : 'not in ggml format'
      throw wrong(path, `it is ${kind}`)
    }
    const [
      vocab = 0,
      audioCtx = 0,
      audioState = 0,
      audioHeads = 0,
      audioLayers = 0,
      textCtx = 0,
      textState = 0,
    ] = await int32s(7)
    const [textHeads = 0, textLayers = 0, mels = 0] = await int32s(3)
    await int32s(1) // ftype
    const sane = (v: number, max: number) => v > 0 && v <= max
    if (
      !sane(vocab, 100_000) ||
      !sane(audioCtx, 10_000) ||
      !sane(audioState, 10_000) ||
      !sane(audioHeads, 256) ||
      !sane(audioLayers, 256) ||
      !sane(textCtx, 10_000) ||
      textState !== audioState ||
      !sane(textHeads, 256) ||
      !sane(textLayers, 256) ||
      !sane(mels, 512)
    )
      throw wrong(path, 'its header holds impossible sizes')
    const [filterMels = 0, filterFft = 0] = await int32s(2)
    if (!sane(filterMels, 512) || !sane(filterFft, 4096)) throw wrong(path, 'its mel filters are damaged')
    at += filterMels * filterFft * 4
    const [words = 0] = await int32s(1)
    if (words < 0 || words > vocab) throw wrong(path, 'its vocabulary is damaged')
    for (let i = 0; i < words; i++) {
      const [length = 0] = await int32s(1)
      if (length < 0 || length > 1024) throw wrong(path, `its vocabulary is damaged at word ${i}`)
      at += length
    }
    let tensors = 0
    while (at < size) {
      const [dims = 0, nameLength = 0, type = -1] = await int32s(3)
      if (dims < 1 || dims > 4 || nameLength < 1 || nameLength > 256)
        throw wrong(path, `tensor ${tensors + 1} has a damaged header`)
      const shape = await int32s(dims)
      const typeSize = TYPE_SIZES[type]
      if (!typeSize) throw wrong(path, `tensor ${tensors + 1} has the unknown type ${type}`)
      const elements = shape.reduce((a, b) => a * b, 1)
      if (elements <= 0 || elements % typeSize[0] !== 0)
        throw wrong(path, `tensor ${tensors + 1} has an impossible shape`)
      at += nameLength
      const bytes = (elements / typeSize[0]) * typeSize[1]
      if (at + bytes > size)
        throw wrong(
          path,
          `it ends inside tensor ${tensors + 1}, ${at + bytes - size} bytes short (truncated)`,
        )
      at += bytes
      tensors++
    }
    if (tensors === 0) throw wrong(path, 'it holds no weights')
    return { vocab, audioLayers, textLayers, multilingual: vocab >= 51865, tensors, sizeBytes: size }
  } finally {
    await file.close()
  }
}
