import type { ConvertFormat, FormatLimits } from './types'

const MB = 1024 * 1024

/** Defaults per format: OCR-bound formats get more time, text formats less room. */
export const defaultLimits: Record<ConvertFormat, FormatLimits> = {
  docx: { maxBytes: 50 * MB, timeoutMs: 60_000 },
  pdf: { maxBytes: 200 * MB, timeoutMs: 300_000 },
  xlsx: { maxBytes: 50 * MB, timeoutMs: 60_000 },
  xls: { maxBytes: 50 * MB, timeoutMs: 60_000 },
  csv: { maxBytes: 50 * MB, timeoutMs: 30_000 },
  tsv: { maxBytes: 50 * MB, timeoutMs: 30_000 },
  pptx: { maxBytes: 200 * MB, timeoutMs: 60_000 },
  html: { maxBytes: 20 * MB, timeoutMs: 30_000 },
  text: { maxBytes: 20 * MB, timeoutMs: 10_000 },
  markdown: { maxBytes: 20 * MB, timeoutMs: 10_000 },
  json: { maxBytes: 20 * MB, timeoutMs: 10_000 },
  ipynb: { maxBytes: 50 * MB, timeoutMs: 30_000 },
  feed: { maxBytes: 20 * MB, timeoutMs: 30_000 },
  epub: { maxBytes: 100 * MB, timeoutMs: 120_000 },
  zip: { maxBytes: 200 * MB, timeoutMs: 300_000 },
  image: { maxBytes: 30 * MB, timeoutMs: 120_000 },
}

/**
 * Runs `task` with a deadline and the caller's signal folded into one AbortSignal. The task gets the
 * signal and must stop at its next checkpoint; the returned promise settles at the deadline either way.
 */
export async function withDeadline<T>(
  timeoutMs: number,
  outer: AbortSignal | undefined,
  task: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(new DeadlineExceeded(timeoutMs)), timeoutMs)
  const forward = () => controller.abort(outer?.reason)
  outer?.addEventListener('abort', forward, { once: true })
  if (outer?.aborted) forward()
  try {
    return await Promise.race([
      task(controller.signal),
      new Promise<never>((_, reject) => {
        if (controller.signal.aborted) reject(controller.signal.reason)
        controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true })
      }),
    ])
  } finally {
    clearTimeout(timer)
    outer?.removeEventListener('abort', forward)
  }
}

/** The abort reason of a conversion's deadline; convert's `describeFailure` turns it into a timeout problem. */
export class DeadlineExceeded extends Error {
  constructor(readonly timeoutMs: number) {
    super(`took longer than ${Math.round(timeoutMs / 1000)} s`)
    this.name = 'DeadlineExceeded'
  }
}

/** Yields to the event loop so timers and aborts can fire between chunks of synchronous work. */
export async function checkpoint(signal: AbortSignal): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve))
  signal.throwIfAborted()
}
