import { createRequire } from 'node:module'
import type Tesseract from 'tesseract.js'
import type { OcrEngine } from '../types'

interface LanguageData {
  langPath: string
  gzip: boolean
}

/** English language data shipped by the `@tesseract.js-data/eng` package: nothing is downloaded. */
function englishData(): LanguageData {
  return createRequire(import.meta.url)('@tesseract.js-data/eng') as LanguageData
}

/**
 * Offline OCR: one tesseract.js worker (its own thread), started on first use and reused.
 * An aborted job terminates the worker; the next call starts a fresh one.
 */
export function createTesseractOcr(): OcrEngine {
  let worker: Promise<Tesseract.Worker> | undefined

  const start = async () => {
    const tesseract = await import('tesseract.js')
    const data = englishData()
    return tesseract.createWorker('eng', tesseract.OEM.LSTM_ONLY, {
      langPath: data.langPath,
      gzip: data.gzip,
      // 'none': never write eng.traineddata into the working directory, never read a stale copy.
      cacheMethod: 'none',
      logger: () => {},
      errorHandler: () => {},
    })
  }

  const stop = async () => {
    const running = worker
    worker = undefined
    if (running) await (await running.catch(() => undefined))?.terminate()
  }

  return {
    async recognize(image, { signal }) {
      signal.throwIfAborted()
      worker ??= start()
      const current = await worker
      const aborted = new Promise<never>((_, reject) => {
        signal.addEventListener(
          'abort',
          () => {
            void stop()
            reject(signal.reason)
          },
          { once: true },
        )
      })
      const result = await Promise.race([current.recognize(Buffer.from(image)), aborted])
      return result.data.text
    },
    dispose: stop,
  }
}
