import { existsSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { AppError } from '../../../shared/errors'
import type { VoiceOption } from '../../../shared/ipc'
import type { SpeechEngine, SpeechRequest } from '../service/speechEngine'
import type { EngineState } from '../service/speechRecognizer'
import { encodeWav } from '../wav/pcm'
import { preparePiperVoice, sherpaModelName } from './piperVoicePrep'

/** The part of sherpa-onnx-node this engine uses. */
interface SherpaTts {
  sampleRate: number
  generateAsync(request: { text: string; sid: number; speed: number }): Promise<{
    samples: Float32Array
    sampleRate: number
  }>
}
interface SherpaModule {
  version?: string
  OfflineTts: { createAsync(config: unknown): Promise<SherpaTts> }
}

/** Where distributions put espeak-ng's phoneme data, which Piper voices phonemize with. */
const SYSTEM_ESPEAK_DATA = [
  '/usr/lib/x86_64-linux-gnu/espeak-ng-data',
  '/usr/lib/aarch64-linux-gnu/espeak-ng-data',
  '/usr/share/espeak-ng-data',
  '/usr/lib/espeak-ng-data',
  '/opt/homebrew/share/espeak-ng-data',
  '/usr/local/share/espeak-ng-data',
]

let sherpa: { module?: SherpaModule; reason?: string } | undefined

/** sherpa-onnx-node, loaded once on first use (its native library is large and only Piper needs it). */
export function loadSherpa(): { module?: SherpaModule; reason?: string } {
  if (!sherpa) {
    try {
      sherpa = { module: createRequire(import.meta.url)('sherpa-onnx-node') as SherpaModule }
    } catch (error) {
      sherpa = {
        reason: `sherpa-onnx has no build for ${process.platform}-${process.arch} here (${(error as Error).message.split('\n')[0]}).`,
      }
    }
  }
  return sherpa
}

export interface PiperVoiceFiles {
  model: string
  tokens: string
  dataDir: string
}

/** The files of an installed voice folder, or a clear error saying which one is missing. */
export async function piperVoiceFiles(dir: string, id: string): Promise<PiperVoiceFiles> {
  const names = await readdir(dir).catch(() => undefined)
  if (!names)
    throw new AppError(
      'NOT_FOUND',
      `The Piper voice "${id}" is not installed. Download it in Settings → Voice or with \`bureau models pull ${id}\`.`,
    )
  let model = names.find((n) => n.endsWith('.sherpa.onnx')) ?? names.find((n) => n.endsWith('.onnx'))
  // A voice as Piper publishes it (model + .onnx.json, e.g. copied in by hand) is prepared on first use.
  if (model && !names.includes('tokens.txt') && names.includes(`${model}.json`)) {
    const voice = model.slice(0, -'.onnx'.length)
    await preparePiperVoice(dir, voice)
    model = sherpaModelName(voice)
    names.push('tokens.txt')
  }
  if (!model || !names.includes('tokens.txt'))
    throw new AppError(
      'VALIDATION_FAILED',
      `The Piper voice "${id}" in ${dir} is incomplete (${model ? 'tokens.txt' : 'the .onnx model'} is missing): remove it and download it again.`,
    )
  const own = join(dir, 'espeak-ng-data')
  const dataDir = existsSync(own) ? own : SYSTEM_ESPEAK_DATA.find((d) => existsSync(join(d, 'phontab')))
  if (!dataDir)
    throw new AppError(
      'UNAVAILABLE',
      `Piper voices need espeak-ng's phoneme data, and neither the voice "${id}" nor this system has it: install espeak-ng (e.g. \`sudo apt install espeak-ng\`).`,
    )
  return { model: join(dir, model), tokens: join(dir, 'tokens.txt'), dataDir }
}

export interface PiperEngineOptions {
  /** `<data-dir>/voices`: one folder per installed voice. */
  voicesDir: string
  threads?: number
}

/**
 * Neural offline voices: Piper (VITS) models run by sherpa-onnx's native library, which synthesizes
 * on its own thread (`generateAsync`), so the event loop keeps running while a sentence is made.
 */
export function createPiperEngine(options: PiperEngineOptions): SpeechEngine & {
  status(): Promise<EngineState>
  voices(): Promise<VoiceOption[]>
  dispose(): void
} {
  const loaded = new Map<string, Promise<SherpaTts>>()
  const voices = async (): Promise<VoiceOption[]> => {
    const names = await readdir(options.voicesDir).catch(() => [] as string[])
    const out: VoiceOption[] = []
    for (const name of names.sort()) {
      if (name.endsWith('.partial')) continue
      const files = await readdir(join(options.voicesDir, name)).catch(() => [] as string[])
      if (!files.some((f) => f.endsWith('.onnx'))) continue
      const language = /^(?:piper-)?([a-z]{2,3})[_-]/i.exec(name)?.[1]?.toLowerCase()
      out.push({ id: name, name: name.replace(/^piper-/, ''), ...(language ? { language } : {}) })
    }
    return out
  }
  const tts = (id: string): Promise<SherpaTts> => {
    let found = loaded.get(id)
    if (!found) {
      found = (async () => {
        const binding = loadSherpa()
        if (!binding.module) throw new AppError('UNAVAILABLE', binding.reason ?? 'sherpa-onnx is missing.')
        const files = await piperVoiceFiles(join(options.voicesDir, id), id)
        const head = (await readFile(files.model)).subarray(0, 16)
        if (head.length < 16)
          throw new AppError('VALIDATION_FAILED', `The Piper voice "${id}" is damaged (its model is empty).`)
        try {
          return await binding.module.OfflineTts.createAsync({
            model: {
              vits: { model: files.model, tokens: files.tokens, dataDir: files.dataDir },
              numThreads: options.threads ?? 1,
              provider: 'cpu',
              debug: false,
            },
            maxNumSentences: 1,
          })
        } catch (error) {
          throw new AppError(
            'VALIDATION_FAILED',
            `The Piper voice "${id}" could not be loaded (${(error as Error).message.slice(0, 160)}): it is damaged or not a Piper/VITS model. Remove it and download it again.`,
            { cause: error },
          )
        }
      })()
      loaded.set(id, found)
      found.catch(() => loaded.delete(id))
    }
    return found
  }
  return {
    id: 'piper',
    voices,
    async status() {
      const binding = loadSherpa()
      if (!binding.module) return { state: 'unavailable', reason: binding.reason }
      if ((await voices()).length === 0)
        return {
          state: 'needs-download',
          reason:
            'Download a Piper voice (e.g. piper-en_US-amy-medium, 63 MB) in Settings → Voice or with `bureau models pull piper-en_US-amy-medium`.',
        }
      return { state: 'ready' }
    },
    async synthesize(request: SpeechRequest, signal?: AbortSignal) {
      const id = request.voice ?? (await voices())[0]?.id
      if (!id)
        throw new AppError(
          'NOT_FOUND',
          'No Piper voice is installed: download one with `bureau models pull piper-en_US-amy-medium`.',
        )
      const engine = await tts(id)
      if (signal?.aborted) throw new AppError('CANCELLED', 'Speech was cancelled.')
      const audio = await engine.generateAsync({
        text: request.text,
        sid: 0,
        speed: Math.min(4, Math.max(0.25, request.rate ?? 1)),
      })
      if (signal?.aborted) throw new AppError('CANCELLED', 'Speech was cancelled.')
      if (audio.samples.length === 0)
        throw new AppError('HANDLER_FAILED', `The Piper voice "${id}" produced no audio.`)
      return { audio: encodeWav(audio.samples, audio.sampleRate), mimeType: 'audio/wav' }
    },
    dispose() {
      loaded.clear()
    },
  }
}
