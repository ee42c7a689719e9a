import { createHash } from 'node:crypto'
import { type AttachmentConverter, type ConvertedAttachment, isStableFailure } from './converterPort'

type ConvertOptions = NonNullable<Parameters<AttachmentConverter['convert']>[1]>

interface InFlight {
  maxChars: number | undefined
  localOnly: boolean
  promise: Promise<ConvertedAttachment>
}

const MAX_FAILURES = 32

/** Resolves as `promise` does, or rejects with the signal's reason as soon as it aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise
  signal.throwIfAborted()
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

/**
 * The converter as the composer's pre-send check and the send share it: a send of a file still being
 * checked waits for that conversion instead of starting a second one, and a file that cannot be read
 * (not a document, damaged, encrypted, too large) fails again at once. Successful results come from
 * the converter's own cache, so Send does not convert a checked file twice.
 */
export function shareConversions(converter: AttachmentConverter): AttachmentConverter {
  const inFlight = new Map<string, InFlight>()
  const failures = new Map<string, unknown>()
  const rememberFailure = (key: string, error: unknown) => {
    failures.delete(key)
    failures.set(key, error)
    while (failures.size > MAX_FAILURES) failures.delete(failures.keys().next().value as string)
  }

  async function convert(
    input: { name: string; bytes: Uint8Array },
    options: ConvertOptions = {},
  ): Promise<ConvertedAttachment> {
    const key = `${createHash('sha256').update(input.bytes).digest('hex')}\u0000${input.name}`
    const localOnly = options.localOnly === true
    const prior = inFlight.get(key)
    if (prior) {
      if (prior.maxChars === options.maxChars && prior.localOnly === localOnly)
        return untilAborted(prior.promise, options.signal)
      // Another budget or reader: wait, then ask the converter (its cache answers for most formats).
      await untilAborted(
        prior.promise.catch(() => undefined),
        options.signal,
      )
    }
    if (failures.has(key)) throw failures.get(key)
    const promise = converter.convert(input, options)
    const entry: InFlight = { maxChars: options.maxChars, localOnly, promise }
    inFlight.set(key, entry)
    try {
      return await promise
    } catch (error) {
      if (isStableFailure(error)) rememberFailure(key, error)
      throw error
    } finally {
      if (inFlight.get(key) === entry) inFlight.delete(key)
    }
  }
  return { convert }
}
