import type { Worker } from 'node:worker_threads'
import { FormatProblem } from '../errors'
import { DeadlineExceeded } from '../limits'
import type { ConvertFormat, ConvertResult, OcrEngine, VisionHook } from '../types'
import { acquireSlot, convertPoolSize, convertPoolStats } from './pool'
import { type ConvertJob, errorToWire, type FromWorker, failureFromWire, type ToWorker } from './protocol'
import { startConvertWorker } from './workerEntry'

/** Old-generation heap of one conversion worker; beyond it V8 stops the worker (not the host). */
export const WORKER_HEAP_MB = 1024
/**
 * Buffers (inflated streams, decoded images) live outside the V8 heap, so the process's resident
 * memory is watched too: a conversion that grows it by more than this is stopped.
 */
export const WORKER_RSS_BUDGET = 1536 * 1024 * 1024
/** The worker's own deadline fires first with a precise message; this one kills a blocked worker. */
const HARD_DEADLINE_GRACE_MS = 1_000
const WATCH_INTERVAL_MS = 200

export interface WorkerHooks {
  ocr(): OcrEngine | undefined
  vision: VisionHook | undefined
}

/** Started workers waiting for a job (some may still be starting), kept to reuse loaded libraries. */
interface IdleWorker {
  ready: Promise<Worker>
}
const idle: IdleWorker[] = []

/** The worker is created at once (a prestarted one boots while the CLI loads); failures reject. */
function spawn(): Promise<Worker> {
  try {
    return Promise.resolve(startConvertWorker({ resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } }))
  } catch (error) {
    return Promise.reject(error)
  }
}

/** An idle worker must not keep a CLI run alive, and one that exits leaves the list. */
function park(worker: Worker): IdleWorker {
  worker.removeAllListeners('message')
  worker.removeAllListeners('error')
  worker.removeAllListeners('exit')
  worker.unref()
  const entry: IdleWorker = { ready: Promise.resolve(worker) }
  const drop = () => {
    const index = idle.indexOf(entry)
    if (index >= 0) idle.splice(index, 1)
  }
  worker.once('exit', drop)
  // A worker that fails while it waits (its build damaged, a library that cannot load) leaves the pool;
  // unheard, the error would end the host.
  worker.on('error', () => {
    drop()
    void worker.terminate()
  })
  return entry
}

/** Started workers waiting for a job now (tests: a worker whose job overran is not among them). */
export function idleWorkerCount(): number {
  return idle.length
}

/** Terminates the waiting workers (tests that need a fresh worker share the pool with other files). */
export async function stopIdleWorkers(): Promise<void> {
  const waiting = idle.splice(0)
  await Promise.all(
    waiting.map((entry) =>
      entry.ready.then(
        (worker) => worker.terminate(),
        () => {},
      ),
    ),
  )
}

function release(worker: Worker): void {
  if (idle.length >= convertPoolSize()) {
    void worker.terminate()
    return
  }
  idle.push(park(worker))
}

async function acquire(): Promise<Worker> {
  const worker = (await idle.pop()?.ready) ?? (await spawn())
  worker.removeAllListeners('exit')
  worker.removeAllListeners('error')
  worker.ref()
  return worker
}

/**
 * Starts up to `count` workers (within the pool's size) before the files are read, and has every idle
 * worker load the libraries of `formats`, so a batch's first conversions find PDFium or mammoth loaded.
 */
export function warmWorkers(formats: ConvertFormat[], count: number): void {
  const message: ToWorker = { type: 'warm', formats }
  for (const entry of idle)
    void entry.ready.then(
      (worker) => worker.postMessage(message),
      () => {},
    )
  const missing = Math.min(count, convertPoolSize()) - idle.length - convertPoolStats().running
  for (let index = 0; index < missing; index++) {
    const ready = spawn().then((worker) => {
      worker.postMessage(message)
      const parked = park(worker)
      const at = idle.indexOf(entry)
      if (at >= 0) idle[at] = parked
      return worker
    })
    const entry: IdleWorker = { ready }
    ready.catch(() => {
      const at = idle.indexOf(entry)
      if (at >= 0) idle.splice(at, 1)
    })
    idle.push(entry)
  }
}

function crashProblem(error: unknown): FormatProblem {
  const code = (error as { code?: string } | undefined)?.code
  if (code === 'ERR_WORKER_OUT_OF_MEMORY')
    return new FormatProblem(
      'too_large',
      `the conversion needed more than ${WORKER_HEAP_MB} MB of memory and was stopped`,
    )
  return new FormatProblem('failed', 'the conversion stopped unexpectedly')
}

/** The process's memory passed the budget while other conversions ran too: which one grew it is unknown. */
class SharedMemoryExceeded extends Error {}

const memoryProblem = () =>
  new FormatProblem(
    'too_large',
    `the conversion needed more than ${Math.round(WORKER_RSS_BUDGET / 2 ** 20)} MB of memory and was stopped`,
  )

/**
 * Runs one conversion in a worker thread of the pool (`pool.ts`: one per core but one, queued beyond), so
 * parsing never blocks the host's event loop. The worker is terminated at the hard deadline, when the
 * caller aborts, and when memory grows past the budget; OCR and vision requests from the worker are
 * served here, with the job's signal. Resident memory is the process's, so when it passes the budget
 * while several conversions run, each of them runs again alone: the one that grew it fails by itself
 * and the others keep their results.
 */
export async function runInWorker(
  job: Omit<ConvertJob, 'type'>,
  hooks: WorkerHooks,
  outer: AbortSignal | undefined,
): Promise<ConvertResult> {
  try {
    return await attempt(job, hooks, outer, false)
  } catch (error) {
    if (!(error instanceof SharedMemoryExceeded)) throw error
    return attempt(job, hooks, outer, true)
  }
}

async function attempt(
  job: Omit<ConvertJob, 'type'>,
  hooks: WorkerHooks,
  outer: AbortSignal | undefined,
  alone: boolean,
): Promise<ConvertResult> {
  outer?.throwIfAborted()
  const releaseSlot = await acquireSlot(alone, outer)
  try {
    const worker = await acquire()
    // A cancel while the worker was starting came before runOnce listens for it.
    if (outer?.aborted) {
      release(worker)
      throw outer.reason
    }
    return await runOnce(job, hooks, outer, worker, alone)
  } finally {
    releaseSlot()
  }
}

function runOnce(
  job: Omit<ConvertJob, 'type'>,
  hooks: WorkerHooks,
  outer: AbortSignal | undefined,
  worker: Worker,
  alone: boolean,
): Promise<ConvertResult> {
  const controller = new AbortController()
  const startRss = process.memoryUsage.rss()
  return new Promise<ConvertResult>((resolve, reject) => {
    let settled = false
    const finish = (outcome: () => void, reuse: boolean) => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      clearInterval(watch)
      outer?.removeEventListener('abort', onAbort)
      controller.abort(new DeadlineExceeded(job.timeoutMs))
      if (reuse) release(worker)
      else void worker.terminate()
      outcome()
    }
    const fail = (error: unknown) => finish(() => reject(error), false)
    const onAbort = () => fail(outer?.reason)
    const deadline = setTimeout(
      () => fail(new DeadlineExceeded(job.timeoutMs)),
      job.timeoutMs + HARD_DEADLINE_GRACE_MS,
    )
    // Sticky: once others ran beside this one, a later reading (after one of them was stopped, its memory
    // not yet returned) still cannot tell which conversion grew the process.
    let sawOthers = convertPoolStats().running > 1
    const watch = setInterval(() => {
      sawOthers ||= convertPoolStats().running > 1
      if (process.memoryUsage.rss() - startRss <= WORKER_RSS_BUDGET) return
      fail(!alone && sawOthers ? new SharedMemoryExceeded() : memoryProblem())
    }, WATCH_INTERVAL_MS)
    watch.unref()
    outer?.addEventListener('abort', onAbort, { once: true })

    const answer = (message: ToWorker) => {
      if (!settled) worker.postMessage(message)
    }
    worker.on('message', (message: FromWorker) => {
      if (message.type === 'done') finish(() => resolve(message.result), true)
      else if (message.type === 'failed')
        finish(() => reject(failureFromWire(message.failure)), !message.stillRunning)
      else {
        const { callId, kind, image } = message
        const read =
          kind === 'ocr'
            ? hooks.ocr()?.recognize(image.bytes, { signal: controller.signal })
            : hooks.vision?.(image, { signal: controller.signal })
        Promise.resolve(read ?? Promise.reject(new Error(`no ${kind} engine`))).then(
          (text) => answer({ type: 'reply', callId, ok: true, text }),
          (error: unknown) => answer({ type: 'reply', callId, ok: false, error: errorToWire(error) }),
        )
      }
    })
    worker.on('error', (error) => fail(crashProblem(error)))
    worker.on('exit', () => fail(crashProblem(undefined)))
    worker.postMessage({ type: 'convert', ...job } satisfies ToWorker)
  })
}
