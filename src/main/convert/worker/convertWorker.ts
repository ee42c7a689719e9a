import { parentPort, workerData } from 'node:worker_threads'
import { convertBytes, describeFailure } from '../convertCore'
import { ConvertError, FormatProblem } from '../errors'
import { isConvertLifetime, setConvertLifetime } from '../lifetime'
import { withDeadline } from '../limits'
import { loadConverter } from '../registry'
import type { OcrEngine, VisionHook } from '../types'
import { withDefaultWasmFlags } from '../wasmTiering'
import { hasPendingCodeCache, writePendingCodeCache } from './codeCache'
import {
  type ConvertJob,
  errorFromWire,
  type FromWorker,
  failureToWire,
  type HookCall,
  type ToWorker,
} from './protocol'

// The conversion worker: runs one job at a time, asks the main thread for OCR and vision, and is
// terminated from outside when it overruns its deadline or memory (see runInWorker.ts).

const port = parentPort
if (!port) throw new Error('convertWorker must run as a worker thread')
// The host's lifetime (workerEntry.ts), or the default when a worker was started without one.
const lifetime = (workerData as { lifetime?: unknown } | null)?.lifetime
if (isConvertLifetime(lifetime)) setConvertLifetime(lifetime)

const pending = new Map<number, { resolve(text: string): void; reject(error: Error): void }>()
let nextCall = 1

function callMain(kind: HookCall['kind'], image: HookCall['image'], signal: AbortSignal): Promise<string> {
  signal.throwIfAborted()
  const callId = nextCall++
  return new Promise<string>((resolve, reject) => {
    pending.set(callId, { resolve, reject })
    const message: FromWorker = { type: 'call', callId, kind, image }
    port?.postMessage(message)
  })
}

const ocrProxy: OcrEngine = {
  recognize: (bytes, { signal }) =>
    callMain('ocr', { name: 'image', bytes, mimeType: 'application/octet-stream' }, signal),
  dispose: async () => {},
}

const visionProxy: VisionHook = (image, { signal }) => callMain('vision', image, signal)

async function runJob(job: ConvertJob): Promise<FromWorker> {
  let settled = false
  try {
    const result = await withDeadline(job.timeoutMs, undefined, (signal) => {
      const task = convertBytes(job.input, job.settings, signal, {
        limitsFor: (format) => job.limits[format],
        ocr: () => (job.hasOcr ? ocrProxy : undefined),
        vision: job.hasVision ? visionProxy : undefined,
      })
      void task.then(
        () => (settled = true),
        () => (settled = true),
      )
      return task
    })
    return { type: 'done', result }
  } catch (error) {
    const failure =
      error instanceof ConvertError || error instanceof FormatProblem ? error : describeFailure('text', error)
    return { type: 'failed', failure: failureToWire(failure), stillRunning: !settled }
  }
}

port.on('message', (message: ToWorker) => {
  if (message.type === 'reply') {
    const call = pending.get(message.callId)
    pending.delete(message.callId)
    if (message.ok) call?.resolve(message.text)
    else call?.reject(errorFromWire(message.error))
    return
  }
  if (message.type === 'warm') {
    // A failed load is reported by the job that needs the format.
    for (const format of message.formats) void loadConverter(format).catch(() => {})
    return
  }
  void runJob(message).then((outcome) => {
    // Before the answer: a CLI run may exit as soon as it has its last result. The flags are switched
    // only when there is a cache to write (each switch costs ~0.1 ms, every job).
    if (hasPendingCodeCache()) withDefaultWasmFlags(writePendingCodeCache)
    port.postMessage(outcome)
  })
})
