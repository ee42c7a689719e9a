import { AppError } from '../../../shared/errors'

// The few parts of protobuf's wire format an ONNX model file needs here: reading the top-level fields of
// a ModelProto (to find its metadata) and appending metadata entries. Appending a field to a message is
// valid protobuf (fields may come in any order, repeated ones concatenate), so a 60 MB model is never
// decoded or re-encoded, only scanned.

const WIRE_VARINT = 0
const WIRE_FIXED64 = 1
const WIRE_LENGTH = 2
const WIRE_FIXED32 = 5
/** `ModelProto.metadata_props` (repeated StringStringEntryProto { key = 1; value = 2 }). */
const MODEL_METADATA_PROPS = 14
/** `ModelProto.graph`: a model file without one is not a model. */
const MODEL_GRAPH = 7

export function varint(value: number): Buffer {
  const bytes: number[] = []
  let rest = value
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80)
    rest = Math.floor(rest / 0x80)
  }
  bytes.push(rest)
  return Buffer.from(bytes)
}

/** One length-delimited field: tag, length, bytes. */
export function lengthField(field: number, body: Uint8Array | string): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body)
  return Buffer.concat([varint((field << 3) | WIRE_LENGTH), varint(bytes.length), bytes])
}

/** One varint field (non-negative integers). */
export function varintField(field: number, value: number): Buffer {
  return Buffer.concat([varint((field << 3) | WIRE_VARINT), varint(value)])
}

function readVarint(bytes: Uint8Array, at: number): { value: number; next: number } {
  let value = 0
  let scale = 1
  for (let i = at; i < bytes.length && i < at + 10; i++) {
    const byte = bytes[i] as number
    value += (byte & 0x7f) * scale
    if (byte < 0x80) return { value, next: i + 1 }
    scale *= 0x80
  }
  throw new Error(`a varint at byte ${at} runs past the end`)
}

interface TopLevelField {
  field: number
  wire: number
  start: number
  end: number
}

/** The top-level fields of a protobuf message, or an error naming where it stops making sense. */
function topLevelFields(bytes: Uint8Array): TopLevelField[] {
  const fields: TopLevelField[] = []
  let at = 0
  while (at < bytes.length) {
    const tag = readVarint(bytes, at)
    const field = Math.floor(tag.value / 8)
    const wire = tag.value % 8
    if (field === 0) throw new Error(`field number 0 at byte ${at}`)
    let start = tag.next
    let end: number
    if (wire === WIRE_VARINT) end = readVarint(bytes, start).next
    else if (wire === WIRE_FIXED64) end = start + 8
    else if (wire === WIRE_FIXED32) end = start + 4
    else if (wire === WIRE_LENGTH) {
      const length = readVarint(bytes, start)
      start = length.next
      end = start + length.value
    } else throw new Error(`wire type ${wire} at byte ${at}`)
    if (end > bytes.length) throw new Error(`a field at byte ${at} runs past the end`)
    fields.push({ field, wire, start, end })
    at = end
  }
  return fields
}

function entryOf(bytes: Uint8Array): { key: string; value: string } {
  let key = ''
  let value = ''
  for (const f of topLevelFields(bytes)) {
    const text = Buffer.from(bytes.subarray(f.start, f.end)).toString('utf8')
    if (f.field === 1) key = text
    else if (f.field === 2) value = text
  }
  return { key, value }
}

/**
 * The metadata of an ONNX model (its `metadata_props`), read from the file's top-level fields.
 * `name` is used in the error when the bytes are not an ONNX model.
 */
export function onnxMetadata(model: Uint8Array, name: string): Map<string, string> {
  let fields: TopLevelField[]
  try {
    fields = topLevelFields(model)
  } catch (error) {
    throw new AppError(
      'VALIDATION_FAILED',
      `${name} is not an ONNX model (${(error as Error).message}): it is damaged or of another kind.`,
      { cause: error },
    )
  }
  if (!fields.some((f) => f.field === MODEL_GRAPH && f.wire === WIRE_LENGTH))
    throw new AppError('VALIDATION_FAILED', `${name} is not an ONNX model: it has no graph.`)
  const metadata = new Map<string, string>()
  for (const f of fields)
    if (f.field === MODEL_METADATA_PROPS && f.wire === WIRE_LENGTH) {
      const entry = entryOf(model.subarray(f.start, f.end))
      metadata.set(entry.key, entry.value)
    }
  return metadata
}

/** The model with each entry added to its metadata, keeping any key it already has. */
export function withOnnxMetadata(model: Uint8Array, entries: Record<string, string>, name: string): Buffer {
  const existing = onnxMetadata(model, name)
  const added = Object.entries(entries)
    .filter(([key]) => !existing.has(key))
    .map(([key, value]) =>
      lengthField(MODEL_METADATA_PROPS, Buffer.concat([lengthField(1, key), lengthField(2, value)])),
    )
  return Buffer.concat([Buffer.from(model.buffer, model.byteOffset, model.byteLength), ...added])
}
