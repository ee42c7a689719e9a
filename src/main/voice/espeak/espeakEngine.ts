import { spawn } from 'node:child_process'
import { AppError } from '../../../shared/errors'
import type { VoiceOption } from '../../../shared/ipc'
import type { SpeechEngine, SpeechRequest } from '../service/speechEngine'
import { normalizeWav } from '../wav/wavFile'
import { detectEspeak, type EspeakStatus } from './espeakBinary'

/** espeak-ng speaks about 175 words a minute at its default speed. */
const ESPEAK_DEFAULT_WPM = 175
const ESPEAK_DEFAULT_VOICE = 'en-us'
const VOICE_NAME = /^[A-Za-z0-9][A-Za-z0-9_+\-/]{0,63}$/

function espeakWordsPerMinute(rate: number): number {
  return Math.round(Math.min(450, Math.max(80, ESPEAK_DEFAULT_WPM * rate)))
}

/** Parses `espeak-ng --voices`: "Pty Language Age/Gender VoiceName File Other Languages". */
export function parseEspeakVoices(output: string): VoiceOption[] {
  const voices: VoiceOption[] = []
  for (const line of output.split('\n').slice(1)) {
    const cols = line.trim().split(/\s+/)
    const [, language, , name] = cols
    if (language && name) voices.push({ id: language, name: name.replace(/_/g, ' '), language })
  }
  return voices
}

function run(command: string, args: string[], input: string, signal?: AbortSignal): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true, signal })
    const out: Buffer[] = []
    let err = ''
    child.stdout.on('data', (d: Buffer) => out.push(d))
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString()
    })
    child.on('error', (error) => {
      if (signal?.aborted) reject(new AppError('CANCELLED', 'Speech was cancelled.'))
      else
        reject(
          new AppError(
            'UNAVAILABLE',
            `espeak-ng could not start (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
            { cause: error },
          ),
        )
    })
    child.on('close', (code) => {
      if (signal?.aborted) return reject(new AppError('CANCELLED', 'Speech was cancelled.'))
      if (code !== 0)
        return reject(
          new AppError('HANDLER_FAILED', `espeak-ng failed: ${err.trim().split('\n')[0] || `exit ${code}`}`),
        )
      resolve(Buffer.concat(out))
    })
    child.stdin.on('error', () => {})
    child.stdin.end(input)
  })
}

export interface EspeakEngineOptions {
  /** The espeak-ng command (default: found on PATH or in the usual install folders). */
  command?: string
  platform?: NodeJS.Platform
}

/**
 * The offline default voice: espeak-ng as a child process writing WAV to stdout. The text goes in on
 * stdin (never as an argument, so nothing in it can be read as an option).
 */
export function createEspeakEngine(options: EspeakEngineOptions = {}): SpeechEngine & {
  status(): Promise<EspeakStatus>
  voices(): Promise<VoiceOption[]>
} {
  let status: Promise<EspeakStatus> | undefined
  let voices: Promise<VoiceOption[]> | undefined
  const detect = () => {
    status ??= detectEspeak(options)
    return status
  }
  const command = async () => {
    const found = await detect()
    if (!found.available || !found.command)
      throw new AppError('UNAVAILABLE', found.reason ?? 'espeak-ng is missing.')
    return found.command
  }
  return {
    id: 'espeak-ng',
    status: detect,
    voices() {
      voices ??= command()
        .then((cmd) => run(cmd, ['--voices'], ''))
        .then((out) => parseEspeakVoices(out.toString('utf8')))
        .catch(() => [])
      return voices
    },
    async synthesize(request: SpeechRequest, signal?: AbortSignal) {
      const voice = request.voice ?? ESPEAK_DEFAULT_VOICE
      if (!VOICE_NAME.test(voice))
        throw new AppError(
          'VALIDATION_FAILED',
          `"${voice.slice(0, 40)}" is not an espeak-ng voice name (e.g. en-us, de, fr).`,
        )
      const args = ['--stdout', '-b', '1', '-v', voice, '-s', String(espeakWordsPerMinute(request.rate ?? 1))]
      const wav = await run(await command(), args, request.text, signal)
      if (wav.length <= 44)
        throw new AppError(
          'HANDLER_FAILED',
          `espeak-ng produced no audio (is the voice "${voice}" installed?).`,
        )
      return { audio: normalizeWav(new Uint8Array(wav)), mimeType: 'audio/wav' }
    },
  }
}
