/**
 * pdf.js's in-thread ("fake") worker talks to the document through a loopback port that copies every
 * message with `structuredClone`; in Node 20 that goes through the V8 serializer and a message port
 * (about a tenth of a text PDF's conversion: operator lists and text content are large). This port
 * copies plain data (objects, arrays, typed arrays) in JavaScript instead, with the same result: own
 * enumerable properties, buffers copied once per message (views that share one stay sharing, offsets
 * kept), transferred buffers handed over. Anything else in a message (a Map, an Error, a class
 * instance, a cycle) sends the whole message through `structuredClone` as before.
 *
 * Optionally (`withoutGlyphs`) the operator lists that cross it keep their text-showing operators but
 * not their arguments (the glyph objects of every character, most of an operator list's size): a
 * document that is never drawn reads its text from `getTextContent`, and its operator lists only for
 * paths, transforms and images.
 */

type Listener = (event: { data: unknown }) => void

/**
 * Thrown to leave a message to structuredClone; one preallocated object, not an Error, since a few small
 * messages per document (page references, requests carrying a Map) take this way and a stack trace each
 * showed in the profile.
 */
const NOT_PLAIN = Object.freeze({ notPlain: true })

const MAX_DEPTH = 100

interface CloneState {
  buffers: Map<ArrayBufferLike, ArrayBufferLike>
  transfer: Set<unknown> | undefined
}

function cloneBuffer(buffer: ArrayBufferLike, state: CloneState): ArrayBufferLike {
  if (!(buffer instanceof ArrayBuffer)) throw NOT_PLAIN
  let copy = state.buffers.get(buffer)
  if (copy === undefined) {
    copy = state.transfer?.has(buffer) ? buffer : buffer.slice(0)
    state.buffers.set(buffer, copy)
  }
  return copy
}

function cloneView(view: ArrayBufferView, state: CloneState): ArrayBufferView {
  const buffer = cloneBuffer(view.buffer, state)
  if (view instanceof DataView) return new DataView(buffer, view.byteOffset, view.byteLength)
  const typed = view as unknown as {
    constructor: new (b: ArrayBufferLike, o: number, l: number) => ArrayBufferView
    length: number
  }
  return new typed.constructor(buffer, view.byteOffset, typed.length)
}

function cloneValue(value: unknown, state: CloneState, depth: number): unknown {
  if (typeof value !== 'object' || value === null) {
    if (typeof value === 'function' || typeof value === 'symbol') throw NOT_PLAIN
    return value
  }
  if (depth > MAX_DEPTH) throw NOT_PLAIN
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) throw NOT_PLAIN
    const length = value.length
    const copy: unknown[] = new Array(length)
    for (let index = 0; index < length; index++) {
      if (!(index in value)) throw NOT_PLAIN
      copy[index] = cloneValue(value[index], state, depth + 1)
    }
    // Extra own properties on an array are copied by structuredClone; leave such rare arrays to it.
    if (Object.keys(value).length !== length) throw NOT_PLAIN
    return copy
  }
  if (ArrayBuffer.isView(value)) return cloneView(value, state)
  if (value instanceof ArrayBuffer) return cloneBuffer(value, state)
  const proto = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null) throw NOT_PLAIN
  const copy: Record<string, unknown> = {}
  for (const key of Object.keys(value)) {
    const item = cloneValue((value as Record<string, unknown>)[key], state, depth + 1)
    if (key === '__proto__')
      Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true })
    else copy[key] = item
  }
  return copy
}

/**
 * The copy the receiving side gets: equal in value to `structuredClone(message, { transfer })`, except
 * that an object reached twice is copied twice (pdf.js's messages share none) and a cycle ends in the
 * depth limit's fallback to `structuredClone`.
 */
export function cloneMessage(message: unknown, transfer?: Transferable[]): unknown {
  try {
    return cloneValue(message, { buffers: new Map(), transfer: transfer ? new Set(transfer) : undefined }, 0)
  } catch (error) {
    if (error !== NOT_PLAIN) throw error
    return structuredClone(message, transfer ? { transfer } : undefined)
  }
}

// pdf.js's OPS codes of the operators that show text (stable across 4.x/5.x).
const SHOW_TEXT_FIRST = 44
const SHOW_TEXT_LAST = 47

interface OperatorListChunk {
  fnArray: ArrayLike<number>
  argsArray: unknown[]
}

function isOperatorListChunk(chunk: unknown): chunk is OperatorListChunk {
  const candidate = chunk as Partial<OperatorListChunk> | null
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    (Array.isArray(candidate.fnArray) || ArrayBuffer.isView(candidate.fnArray)) &&
    Array.isArray(candidate.argsArray)
  )
}

/** The message with the arguments of text-showing operators left out (`null`, pdf.js's "no arguments"). */
export function withoutGlyphArguments(message: unknown): unknown {
  const chunk = (message as { chunk?: unknown } | null)?.chunk
  if (!isOperatorListChunk(chunk)) return message
  const argsArray = chunk.argsArray.slice()
  for (let index = 0; index < argsArray.length; index++) {
    const op = chunk.fnArray[index] ?? 0
    if (op >= SHOW_TEXT_FIRST && op <= SHOW_TEXT_LAST) argsArray[index] = null
  }
  return { ...(message as object), chunk: { ...chunk, argsArray } }
}

/** The same contract as pdf.js's LoopbackPort (its listeners see each message one microtask later). */
export class FastLoopbackPort {
  readonly #listeners = new Map<Listener, (() => void) | null>()
  readonly #deferred = Promise.resolve()
  readonly #withoutGlyphs: boolean

  constructor(options: { withoutGlyphs?: boolean } = {}) {
    this.#withoutGlyphs = options.withoutGlyphs === true
  }

  postMessage(message: unknown, transfer?: Transferable[]): void {
    const sent = this.#withoutGlyphs ? withoutGlyphArguments(message) : message
    const event = { data: cloneMessage(sent, transfer) }
    void this.#deferred.then(() => {
      for (const [listener] of this.#listeners) listener.call(this, event)
    })
  }

  addEventListener(_name: string, listener: Listener, options?: { signal?: AbortSignal } | null): void {
    let removeAbort: (() => void) | null = null
    const signal = options?.signal
    if (signal instanceof AbortSignal) {
      if (signal.aborted) return
      const onAbort = () => this.removeEventListener(_name, listener)
      removeAbort = () => signal.removeEventListener('abort', onAbort)
      signal.addEventListener('abort', onAbort)
    }
    this.#listeners.set(listener, removeAbort)
  }

  removeEventListener(_name: string, listener: Listener): void {
    this.#listeners.get(listener)?.()
    this.#listeners.delete(listener)
  }

  terminate(): void {
    for (const [, removeAbort] of this.#listeners) removeAbort?.()
    this.#listeners.clear()
  }
}
