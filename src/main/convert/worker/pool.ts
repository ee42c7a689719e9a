import { availableParallelism, totalmem } from 'node:os'

/** Memory one busy worker may take (its V8 heap limit plus buffers); caps the pool on small machines. */
const MEMORY_PER_WORKER = 2 * 1024 ** 3
const MAX_WORKERS = 4

interface Waiter {
  exclusive: boolean
  start(): void
}

let size: number | undefined
let running = 0
let exclusiveRunning = false
let mostRunning = 0
let mostWaiting = 0
const queue: Waiter[] = []

/**
 * How many conversions run at once: one worker per core but one (a conversion keeps one core busy, and
 * the host's own thread and V8's compiler and GC threads need the last one), at least one, at most four,
 * and no more than the machine's memory allows at 2 GB per worker. Measured on 2 cores, a cold CLI batch
 * ran faster on one worker than on two, which each compiled the same code while competing for the cores
 * with the host: 20 .docx 1.72 → 1.39 s (CPU 2.75 → 1.75 s), 24 PDFs 3.0 → 2.65 s.
 */
export function convertPoolSize(): number {
  size ??= Math.max(
    1,
    Math.min(availableParallelism() - 1, Math.floor(totalmem() / MEMORY_PER_WORKER), MAX_WORKERS),
  )
  return size
}

/** Tests set the size (`undefined`: the machine's) and start counting `mostRunning`/`mostWaiting` afresh. */
export function setConvertPoolSize(value: number | undefined): void {
  size = value
  mostRunning = running
  mostWaiting = queue.length
  pump()
}

/** Conversions running now, and the most that ran (or waited for a slot) at once since the last reset. */
export function convertPoolStats(): { running: number; mostRunning: number; mostWaiting: number } {
  return { running, mostRunning, mostWaiting }
}

function pump(): void {
  while (queue.length > 0 && !exclusiveRunning) {
    const next = queue[0] as Waiter
    if (next.exclusive ? running > 0 : running >= convertPoolSize()) return
    queue.shift()
    running++
    mostRunning = Math.max(mostRunning, running)
    if (next.exclusive) exclusiveRunning = true
    next.start()
  }
}

/**
 * Waits for a slot (first come, first served) and answers its release. An exclusive slot waits until
 * nothing else runs and keeps others waiting while it runs.
 */
export function acquireSlot(exclusive: boolean, signal: AbortSignal | undefined): Promise<() => void> {
  return new Promise((resolve, reject) => {
    let released = false
    const release = () => {
      if (released) return
      released = true
      running--
      if (exclusive) exclusiveRunning = false
      pump()
    }
    const waiter: Waiter = {
      exclusive,
      start: () => {
        signal?.removeEventListener('abort', onAbort)
        resolve(release)
      },
    }
    const onAbort = () => {
      const index = queue.indexOf(waiter)
      if (index >= 0) queue.splice(index, 1)
      reject(signal?.reason)
      pump()
    }
    if (signal?.aborted) return reject(signal.reason)
    signal?.addEventListener('abort', onAbort, { once: true })
    queue.push(waiter)
    pump()
    mostWaiting = Math.max(mostWaiting, queue.length)
  })
}
