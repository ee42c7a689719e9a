import { createRequire } from 'node:module'
import type Tesseract from 'tesseract.js'
import type { OcrEngine } from '../types'
import { wasmTierUp } from '../wasmTiering'
import { quietTesseractWorker } from './quietWorker'

interface LanguageData {
  langPath: string
  gzip: boolean
}

/** English language data shipped by the `@tesseract.js-data/eng` package: nothing is downloaded. */
function englishData(): LanguageData {
  return createRequire(import.meta.url)('@tesseract.js-data/eng') as LanguageData
}

/** The shared worker was terminated (another job was cancelled) while this job waited on it. */
class WorkerStopped extends Error {}

/** One tesseract.js worker; jobs waiting on it are told when it is terminated, so none waits forever. */
interface Engine {
  worker: Promise<Tesseract.Worker>
  /** Calls `onStopped` once the worker is terminated; the returned function unsubscribes. */
  watchStop(onStopped: (error: Error) => void): () => void
  terminate(): Promise<void>
}

function startEngine(): Engine {
  const watchers = new Set<(error: Error) => void>()
  let stoppedWith: Error | undefined
  const worker = import('tesseract.js').then((tesseract) => {
    // The PDF engine may have left this process's WebAssembly on its baseline compiler.
    wasmTierUp()
    const data = englishData()
    const workerPath = quietTesseractWorker()
    return tesseract.createWorker('eng', tesseract.OEM.LSTM_ONLY, {
      // A URL where tesseract.js expects a path: it hands it to `new Worker` as it is.
      ...(workerPath && { workerPath: workerPath as unknown as string }),
      langPath: data.langPath,
      gzip: data.gzip,
      // 'none': never write eng.traineddata into the working directory, never read a stale copy.
      cacheMethod: 'none',
      logger: () => {},
      errorHandler: () => {},
    })
  })
  worker.catch(() => {})
  let terminating: Promise<void> | undefined
  return {
    worker,
    watchStop(onStopped) {
      if (stoppedWith) {
        onStopped(stoppedWith)
        return () => {}
      }
      watchers.add(onStopped)
      return () => watchers.delete(onStopped)
    },
    terminate: () => {
      terminating ??= (async () => {
        stoppedWith = new WorkerStopped('the text recognition worker was stopped')
        for (const onStopped of watchers) onStopped(stoppedWith)
        watchers.clear()
        await (await worker.catch(() => undefined))?.terminate()
      })()
      return terminating
    },
  }
}

/**
 * Offline OCR: one tesseract.js worker (its own thread), started on first use and shared by the
 * conversions that run at once (it takes their pages one after another). Cancelling a job terminates the
 * worker, the only way to stop a recognition under way; the other jobs on it start a fresh one and go on.
 */
export function createTesseractOcr(): OcrEngine {
  let current: Engine | undefined
  // A job stopped by `dispose` ends; one stopped by another job's cancel starts a fresh worker.
  let disposals = 0

  const stopEngine = (engine: Engine) => {
    if (current === engine) current = undefined
    return engine.terminate()
  }

  async function recognizeOn(engine: Engine, image: Uint8Array, signal: AbortSignal): Promise<string> {
    let unwatch = () => {}
    let onAbort = () => {}
    // Settles when the job is cancelled or its worker stopped; per call, so nothing outlives the call.
    const interrupted = new Promise<never>((_, reject) => {
      unwatch = engine.watchStop(reject)
      onAbort = () => {
        reject(signal.reason)
        void stopEngine(engine)
      }
    })
    interrupted.catch(() => {})
    signal.addEventListener('abort', onAbort, { once: true })
    try {
      const worker = await Promise.race([engine.worker, interrupted]).catch((error: unknown) => {
        // A worker that could not start is not kept: the next job tries a fresh one.
        if (!(error instanceof WorkerStopped) && !signal.aborted) void stopEngine(engine)
        throw error
      })
      const result = await Promise.race([worker.recognize(Buffer.from(image)), interrupted])
      return result.data.text
    } finally {
      // A job that ended must not stop the shared worker when its signal fires later.
      signal.removeEventListener('abort', onAbort)
      unwatch()
    }
  }

  return {
    async recognize(image, { signal }) {
      const disposalsAtStart = disposals
      for (;;) {
        signal.throwIfAborted()
        current ??= startEngine()
        try {
          return await recognizeOn(current, image, signal)
        } catch (error) {
          if (error instanceof WorkerStopped && !signal.aborted && disposals === disposalsAtStart) continue
          throw error
        }
      }
    },
    dispose: async () => {
      disposals++
      if (current) await stopEngine(current)
    },
  }
}
