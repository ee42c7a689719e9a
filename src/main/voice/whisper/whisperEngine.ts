import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { AppError } from '../../../shared/errors'
import type {
  EngineState,
  Recognition,
  RecognitionRequest,
  SpeechRecognizer,
} from '../service/speechRecognizer'
import { RECOGNIZER_RATE } from '../wav/pcm'
import { checkWhisperModel } from './whisperModelFile'

const BINDING = '@fugood/whisper.node'

/**
 * The child that holds the model. whisper.cpp runs in a process of its own because the binding's
 * `stop()` only raises a flag whisper.cpp never reads (the job runs to the end) and a failed job never
 * settles its promise: killing the child is the one cancellation that frees the CPU at once, and a
 * job that goes silent is ended by a deadline instead of hanging the caller.
 */
const CHILD_SOURCE = `
const whisper = require(process.env.BUREAU_WHISPER_BINDING)
let context
whisper.addNativeLogListener((level, text) => {
  if (level === 'error') process.send({ type: 'log', text: String(text).trim() })
})
whisper.toggleNativeLog(true)
process.on('message', async (m) => {
  try {
    if (m.type === 'load') {
      context = await whisper.initWhisper({ filePath: m.path, useGpu: false })
      process.send({ type: 'loaded', id: m.id })
    } else if (m.type === 'transcribe') {
      let partial = ''
      const pcm = m.pcm
      const job = context.transcribeData(pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + pcm.byteLength), {
        language: m.language || 'auto',
        maxThreads: m.threads,
        onNewSegments: (s) => {
          partial += s.result
          process.send({ type: 'partial', id: m.id, text: partial })
        },
      })
      const result = await job.promise
      process.send({ type: 'result', id: m.id, text: result.result, language: result.language })
    }
  } catch (error) {
    process.send({ type: 'error', id: m.id, message: (error && error.message) || String(error) })
  }
})
`

type ChildMessage =
  | { type: 'loaded'; id: number }
  | { type: 'log'; text: string }
  | { type: 'partial'; id: number; text: string }
  | { type: 'result'; id: number; text: string; language?: string }
  | { type: 'error'; id: number; message: string }

export interface WhisperEngineOptions {
  /** The model file to use now (from settings or `--model-file`); undefined: none installed. */
  modelPath(): Promise<string | undefined>
  /** Threads for whisper.cpp (default: half the cores, at least 1). */
  threads?: number
  /** Longest a job may run before it is ended: this many times the audio's length, at least `minTimeoutMs`. */
  timeoutFactor?: number
  minTimeoutMs?: number
  /** The executable that runs the child (default: this Node or Electron, as Node). */
  execPath?: string
}

/** Where the binding and its per-platform build are, or why they are not. */
export function findWhisperBinding(): { path?: string; reason?: string } {
  const require = createRequire(import.meta.url)
  let path: string
  try {
    path = require.resolve(BINDING)
  } catch {
    return { reason: `The ${BINDING} package is missing: run \`npm install\` in Bureau's folder.` }
  }
  const platformPackage = `@fugood/node-whisper-${process.platform}-${process.arch}`
  try {
    const local = createRequire(path)
    local.resolve(`${platformPackage}/package.json`)
  } catch {
    const localBuild = join(dirname(path), '..', 'build', 'Release', 'index.node')
    if (!existsSync(localBuild))
      return {
        reason: `whisper.cpp has no build for ${process.platform}-${process.arch} (${platformPackage} is not published or not installed).`,
      }
  }
  return { path }
}

interface Job {
  id: number
  proc: ChildProcess
  resolve(value: Recognition): void
  reject(error: Error): void
  onPartial?: ((text: string) => void) | undefined
  lastLog?: string
}

/** Offline recognition with whisper.cpp in a child process that keeps the model loaded between utterances. */
export function createWhisperEngine(options: WhisperEngineOptions): SpeechRecognizer & {
  /** Ends the child (the next utterance starts a new one). */
  stopChild(): void
} {
  let child: ChildProcess | undefined
  let loadedPath: string | undefined
  let loading: Promise<void> | undefined
  let nextId = 1
  const jobs = new Map<number, Job>()
  let queue: Promise<unknown> = Promise.resolve()
  const threads = options.threads ?? 2
  const checked = new Map<string, number>()

  const stopChild = () => {
    const current = child
    child = undefined
    loadedPath = undefined
    loading = undefined
    if (current && current.exitCode === null) current.kill('SIGKILL')
  }

  /** Fails the jobs of one child (a killed child's exit arrives after its successor started). */
  const failAll = (proc: ChildProcess, error: Error) => {
    for (const job of [...jobs.values()]) {
      if (job.proc !== proc) continue
      jobs.delete(job.id)
      job.reject(error)
    }
  }

  function startChild(binding: string): ChildProcess {
    const proc = spawn(options.execPath ?? process.execPath, ['-e', CHILD_SOURCE], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', BUREAU_WHISPER_BINDING: binding },
      windowsHide: true,
    })
    let stderr = ''
    proc.stderr?.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-2000)
    })
    proc.on('message', (raw) => {
      const message = raw as ChildMessage
      if (message.type === 'log') {
        for (const job of jobs.values()) if (job.proc === proc) job.lastLog = message.text
        return
      }
      const job = jobs.get(message.id)
      if (!job) return
      if (message.type === 'partial') job.onPartial?.(message.text)
      else {
        jobs.delete(message.id)
        if (message.type === 'loaded') job.resolve({ text: '' })
        else if (message.type === 'result')
          job.resolve({ text: message.text.trim(), language: message.language ?? undefined })
        else job.reject(new AppError('HANDLER_FAILED', `whisper.cpp failed: ${message.message}`))
      }
    })
    proc.on('exit', (code, signal) => {
      if (child === proc) {
        child = undefined
        loadedPath = undefined
        loading = undefined
      }
      const last = stderr.trim().split('\n').at(-1)
      failAll(
        proc,
        new AppError(
          'UNAVAILABLE',
          `whisper.cpp stopped (${signal ?? `exit ${code}`})${last ? `: ${last.slice(0, 200)}` : ''}.`,
        ),
      )
    })
    proc.on('error', (error) => {
      failAll(
        proc,
        new AppError('UNAVAILABLE', `whisper.cpp could not start: ${error.message}`, { cause: error }),
      )
    })
    return proc
  }

  function send(proc: ChildProcess, message: Record<string, unknown>, job: Omit<Job, 'id' | 'proc'>): number {
    const id = nextId++
    jobs.set(id, { ...job, id, proc })
    proc.send({ ...message, id })
    return id
  }

  async function modelFile(): Promise<string> {
    const path = await options.modelPath()
    if (!path)
      throw new AppError(
        'NOT_FOUND',
        'No whisper model is installed: download one in Settings → Voice or with `bureau models pull whisper-base.en`.',
      )
    const info = await stat(path).catch(() => undefined)
    if (!info || checked.get(path) !== info.mtimeMs) {
      await checkWhisperModel(path)
      if (info) checked.set(path, info.mtimeMs)
    }
    return path
  }

  async function ensureLoaded(path: string): Promise<ChildProcess> {
    if (child && loadedPath === path && loading) {
      await loading
      if (child) return child
    }
    stopChild()
    const binding = findWhisperBinding()
    if (!binding.path) throw new AppError('UNAVAILABLE', binding.reason ?? 'whisper.cpp is not available.')
    const proc = startChild(binding.path)
    child = proc
    loadedPath = path
    loading = new Promise<Recognition>((resolve, reject) => {
      send(proc, { type: 'load', path }, { resolve, reject })
    }).then(
      () => undefined,
      (error: unknown) => {
        stopChild()
        throw error instanceof AppError && error.message.includes('Failed to initialize')
          ? new AppError(
              'VALIDATION_FAILED',
              `whisper.cpp could not load ${path}: the file is not a model it reads.`,
            )
          : error
      },
    )
    await loading
    return proc
  }

  async function run(request: RecognitionRequest, signal?: AbortSignal): Promise<Recognition> {
    if (signal?.aborted) throw new AppError('CANCELLED', 'Transcription was cancelled.')
    const path = await modelFile()
    const proc = await ensureLoaded(path)
    const audioMs = (request.pcm.length / RECOGNIZER_RATE) * 1000
    const limit = Math.max(options.minTimeoutMs ?? 120_000, audioMs * (options.timeoutFactor ?? 30))
    return await new Promise<Recognition>((resolve, reject) => {
      let id = 0
      const finish = () => {
        clearTimeout(timer)
        signal?.removeEventListener('abort', abort)
      }
      const abort = () => {
        finish()
        jobs.delete(id)
        stopChild()
        reject(new AppError('CANCELLED', 'Transcription was cancelled.'))
      }
      const timer = setTimeout(() => {
        const job = jobs.get(id)
        finish()
        jobs.delete(id)
        stopChild()
        reject(
          new AppError(
            'TIMEOUT',
            `whisper.cpp gave no result within ${Math.round(limit / 1000)} s${job?.lastLog ? ` (it said: ${job.lastLog.slice(0, 200)})` : ''}; the utterance was dropped.`,
          ),
        )
      }, limit)
      signal?.addEventListener('abort', abort, { once: true })
      id = send(
        proc,
        { type: 'transcribe', pcm: request.pcm, language: request.language ?? '', threads },
        {
          resolve: (value) => {
            finish()
            resolve(value)
          },
          reject: (error) => {
            finish()
            reject(error)
          },
          onPartial: request.onPartial,
        },
      )
    })
  }

  return {
    id: 'whisper',
    async status(): Promise<EngineState> {
      const binding = findWhisperBinding()
      if (!binding.path) return { state: 'unavailable', reason: binding.reason }
      const path = await options.modelPath()
      if (!path)
        return {
          state: 'needs-download',
          reason:
            'Download a whisper model (whisper-base.en, 148 MB, is a good start) in Settings → Voice or with `bureau models pull whisper-base.en`.',
        }
      return existsSync(path)
        ? { state: 'ready' }
        : { state: 'needs-download', reason: `The whisper model ${path} is missing.` }
    },
    transcribe(request, signal) {
      // One utterance at a time: the child holds one model and whisper.cpp one job.
      const result = queue.then(() => run(request, signal))
      queue = result.catch(() => undefined)
      return result
    },
    stopChild,
    async dispose() {
      stopChild()
    },
  }
}
