import type { FileHandle } from 'node:fs/promises'

/**
 * A bounded walk over a GGUF header (versions 2 and 3) that allocates nothing the header asks for: every
 * count and length is checked against the bytes left in the file before it is believed, so a 24-byte
 * file claiming 2^63 key/values or a 2^40-element array is refused at once instead of being handed to a
 * parser that builds arrays of that length. Strings and arrays of fixed-size values are skipped by
 * arithmetic, not read. Layout: https://github.com/ggml-org/ggml/blob/master/docs/gguf.md
 */

/** GGML_MAX_DIMS: llama.cpp refuses tensors with more dimensions. */
export const MAX_TENSOR_DIMS = 4
/** Metadata plus tensor infos; real models need a few MB (a 256k-token vocabulary is about 5 MB). */
export const MAX_HEADER_BYTES = 128 * 1024 * 1024
/** Array elements across the whole header (a large vocabulary with its merges is about 1.5 M). */
export const MAX_ARRAY_ELEMENTS = 16 * 1024 * 1024
/** Arrays inside arrays (the format allows it; no model uses more than one level). */
const MAX_ARRAY_DEPTH = 3
const MAX_KEY_VALUES = 1_000_000
const MAX_TENSORS = 1_000_000

/** Sizes of the fixed-size value types, by GGUF type id; string (8), array (9) are variable. */
const FIXED_SIZE: Record<number, number> = {
  0: 1,
  1: 1,
  2: 2,
  3: 2,
  4: 4,
  5: 4,
  6: 4,
  7: 1,
  10: 8,
  11: 8,
  12: 8,
}
const STRING = 8
const ARRAY = 9
/** Smallest encoding of a value of each variable type: an empty string, an empty array. */
const MIN_SIZE: Record<number, number> = { [STRING]: 8, [ARRAY]: 12 }

/** What is wrong with a header; private to models: `checkGgufHeader` catches it to add the path and the advice. */
export class GgufHeaderError extends Error {}

export interface GgufHeaderScan {
  version: number
  tensorCount: number
  keyValueCount: number
  /** Where the tensor infos end (the tensor data starts at the next alignment boundary). */
  headerBytes: number
}

const WINDOW = 64 * 1024

/** Sequential little-endian reads through one reused window; positions past the end are errors. */
class Reader {
  private readonly buffer = Buffer.alloc(WINDOW)
  private start = 0
  private length = 0
  pos = 0

  constructor(
    private readonly handle: FileHandle,
    readonly size: number,
  ) {}

  get left(): number {
    return this.size - this.pos
  }

  private async need(bytes: number, what: string): Promise<number> {
    if (this.pos + bytes > this.size)
      throw new GgufHeaderError(
        `${what} at byte ${this.pos} runs past the end of the file (${this.size} bytes)`,
      )
    if (this.pos + bytes > MAX_HEADER_BYTES)
      throw new GgufHeaderError(`the header is larger than ${MAX_HEADER_BYTES / 1024 / 1024} MiB`)
    if (this.pos < this.start || this.pos + bytes > this.start + this.length) {
      const { bytesRead } = await this.handle.read(this.buffer, 0, WINDOW, this.pos)
      this.start = this.pos
      this.length = bytesRead
      if (bytesRead < bytes) throw new GgufHeaderError(`the file ended while reading ${what}`)
    }
    const at = this.pos - this.start
    this.pos += bytes
    return at
  }

  async u32(what: string): Promise<number> {
    return this.buffer.readUInt32LE(await this.need(4, what))
  }

  async u64(what: string): Promise<bigint> {
    return this.buffer.readBigUInt64LE(await this.need(8, what))
  }

  skip(bytes: bigint, what: string): void {
    if (bytes > BigInt(this.left))
      throw new GgufHeaderError(
        `${what} at byte ${this.pos} claims ${bytes} bytes, but only ${this.left} are left in the file`,
      )
    this.pos += Number(bytes)
    if (this.pos > MAX_HEADER_BYTES)
      throw new GgufHeaderError(`the header is larger than ${MAX_HEADER_BYTES / 1024 / 1024} MiB`)
  }
}

/** A count read from the file, refused unless `count × minBytes` fits in what is left and under `cap`. */
function bounded(count: bigint, minBytes: number, reader: Reader, what: string, cap: number): number {
  if (count > BigInt(cap)) throw new GgufHeaderError(`${what} is ${count}, more than the ${cap} allowed`)
  if (count * BigInt(minBytes) > BigInt(reader.left))
    throw new GgufHeaderError(
      `${what} is ${count}, but the ${reader.left} bytes left in the file cannot hold that many`,
    )
  return Number(count)
}

export async function scanGgufHeader(handle: FileHandle, size: number): Promise<GgufHeaderScan> {
  const reader = new Reader(handle, size)
  const magic = await reader.u32('the signature')
  if (magic !== 0x46554747) throw new GgufHeaderError('it does not start with the GGUF signature')
  const version = await reader.u32('the version')
  if (version < 2 || version > 3)
    throw new GgufHeaderError(`GGUF version ${version} is not supported (2 or 3)`)
  const tensorsClaimed = await reader.u64('the tensor count')
  const keyValuesClaimed = await reader.u64('the key/value count')
  // Each key/value needs at least a key length, a type and a one-byte value; each tensor info a name
  // length, a dimension count, a type and an offset.
  const keyValueCount = bounded(keyValuesClaimed, 13, reader, 'the key/value count', MAX_KEY_VALUES)
  const tensorCount = bounded(tensorsClaimed, 24, reader, 'the tensor count', MAX_TENSORS)
  let elements = 0

  const skipString = async (what: string) => reader.skip(await reader.u64(`the length of ${what}`), what)

  const skipValue = async (type: number, what: string, depth: number): Promise<void> => {
    const fixed = FIXED_SIZE[type]
    if (fixed !== undefined) return reader.skip(BigInt(fixed), what)
    if (type === STRING) return skipString(what)
    if (type !== ARRAY) throw new GgufHeaderError(`${what} has the unknown value type ${type}`)
    if (depth >= MAX_ARRAY_DEPTH)
      throw new GgufHeaderError(`${what} nests arrays more than ${MAX_ARRAY_DEPTH} deep`)
    const itemType = await reader.u32(`the item type of ${what}`)
    const itemSize = FIXED_SIZE[itemType] ?? MIN_SIZE[itemType]
    if (itemSize === undefined) throw new GgufHeaderError(`${what} has items of the unknown type ${itemType}`)
    const length = bounded(
      await reader.u64(`the length of ${what}`),
      itemSize,
      reader,
      `the length of ${what}`,
      MAX_ARRAY_ELEMENTS - elements,
    )
    elements += length
    if (FIXED_SIZE[itemType] !== undefined) return reader.skip(BigInt(length * itemSize), what)
    for (let index = 0; index < length; index++) await skipValue(itemType, what, depth + 1)
  }

  for (let index = 0; index < keyValueCount; index++) {
    const key = `metadata entry ${index + 1}`
    await skipString(`the key of ${key}`)
    await skipValue(await reader.u32(`the type of ${key}`), key, 0)
  }
  for (let index = 0; index < tensorCount; index++) {
    const tensor = `tensor ${index + 1}`
    await skipString(`the name of ${tensor}`)
    const dims = await reader.u32(`the dimension count of ${tensor}`)
    if (dims < 1 || dims > MAX_TENSOR_DIMS)
      throw new GgufHeaderError(`${tensor} has ${dims} dimensions (1 to ${MAX_TENSOR_DIMS} allowed)`)
    let values = 1n
    for (let dim = 0; dim < dims; dim++) values *= await reader.u64(`a dimension of ${tensor}`)
    // Even the smallest quantisation stores more than one bit per value.
    if (values > BigInt(size) * 8n)
      throw new GgufHeaderError(`${tensor} claims ${values} values, more than a ${size}-byte file can hold`)
    await reader.u32(`the type of ${tensor}`)
    const offset = await reader.u64(`the data offset of ${tensor}`)
    if (offset > BigInt(size))
      throw new GgufHeaderError(`${tensor}'s data offset ${offset} lies past the end of the file`)
  }
  return { version, tensorCount, keyValueCount, headerBytes: reader.pos }
}
