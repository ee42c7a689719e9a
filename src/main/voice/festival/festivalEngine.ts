import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AppError } from '../../../shared/errors'
import type { VoiceOption } from '../../../shared/ipc'
import type { SpeechEngine, SpeechRequest } from '../service/speechEngine'
import type { EngineState } from '../service/speechRecognizer'
import { findOnPath, runProgram } from '../system/runProgram'
import { normalizeWav } from '../wav/wavFile'

export const FESTIVAL_INSTALL = 'sudo apt install festival festvox-us-slt-hts'
/** The HTS voice Debian packages as festvox-us-slt-hts: far more natural than the default diphone voice. */
const PREFERRED_VOICE = 'cmu_us_slt_arctic_hts'
const VOICE_NAME = /^[a-z0-9_]{1,64}$/

export interface FestivalOptions {
  /** Folder of `festival` and `text2wave` (default: found on PATH). */
  text2wave?: string
  festival?: string
  platform?: NodeJS.Platform
}

/** Festival as a system TTS engine: `text2wave` reads the sentence on stdin and writes a WAV. */
export function createFestivalEngine(options: FestivalOptions = {}): SpeechEngine & {
  status(): Promise<EngineState>
  voices(): Promise<VoiceOption[]>
} {
  const platform = options.platform ?? process.platform
  let voices: Promise<VoiceOption[]> | undefined
  const programs = async () => ({
    text2wave: options.text2wave ?? (await findOnPath('text2wave')),
    festival: options.festival ?? (await findOnPath('festival')),
  })
  const listVoices = () => {
    voices ??= (async () => {
      const { festival } = await programs()
      if (!festival) return []
      const result = await runProgram('Festival', festival, ['--pipe'], { input: '(print (voice.list))\n' })
      const names = /\(([^()]*)\)/.exec(result.stdout.toString('utf8'))?.[1]?.trim().split(/\s+/) ?? []
      return names
        .filter((n) => VOICE_NAME.test(n))
        .map((n) => ({ id: n, name: n.replace(/_/g, ' '), language: 'en' }))
    })().catch(() => [])
    return voices
  }
  return {
    id: 'festival',
    voices: listVoices,
    async status() {
      const found = await programs()
      if (!found.text2wave || !found.festival)
        return platform === 'linux'
          ? {
              state: 'needs-install',
              reason: `Festival is not installed. Install it with \`${FESTIVAL_INSTALL}\`, then reopen Bureau.`,
            }
          : {
              state: 'unavailable',
              reason: 'Festival is offered on Linux (Debian, Ubuntu), where it is a package.',
            }
      const list = await listVoices()
      if (list.length === 0)
        return {
          state: 'needs-install',
          reason: `Festival has no voice. Install one with \`${FESTIVAL_INSTALL}\`.`,
        }
      return { state: 'ready' }
    },
    async synthesize(request: SpeechRequest, signal?: AbortSignal) {
      const { text2wave } = await programs()
      if (!text2wave) throw new AppError('UNAVAILABLE', `Festival is not installed: \`${FESTIVAL_INSTALL}\`.`)
      const available = await listVoices()
      const voice =
        request.voice ??
        (available.some((v) => v.id === PREFERRED_VOICE) ? PREFERRED_VOICE : available[0]?.id)
      if (voice !== undefined && !VOICE_NAME.test(voice))
        throw new AppError('VALIDATION_FAILED', `"${voice.slice(0, 40)}" is not a Festival voice name.`)
      if (voice !== undefined && available.length > 0 && !available.some((v) => v.id === voice))
        throw new AppError(
          'NOT_FOUND',
          `Festival has no voice "${voice}" here; it has ${available.map((v) => v.id).join(', ')}.`,
        )
      // Diphone and cluster voices follow Duration_Stretch; the HTS voices speak at their one speed.
      const stretch = (1 / Math.min(4, Math.max(0.25, request.rate ?? 1))).toFixed(3)
      const setup = `${voice ? `(voice_${voice}) ` : ''}(Parameter.set 'Duration_Stretch ${stretch})`
      const dir = await mkdtemp(join(tmpdir(), 'bureau-festival-'))
      try {
        const out = join(dir, 'speech.wav')
        const result = await runProgram('Festival', text2wave, ['-o', out, '-eval', setup], {
          input: request.text,
          signal,
        })
        // text2wave exits 0 even when its Scheme fails; the error is only on stderr.
        const schemeError = /SIOD ERROR[^\n]*/.exec(result.stderr)?.[0]
        if (result.code !== 0 || schemeError)
          throw new AppError(
            'HANDLER_FAILED',
            `Festival failed: ${schemeError ?? (result.stderr.trim().split('\n').at(-1) || `exit ${result.code}`)}`,
          )
        const wav = await readFile(out).catch(() => undefined)
        if (!wav || wav.length <= 44) throw new AppError('HANDLER_FAILED', 'Festival produced no audio.')
        return { audio: normalizeWav(new Uint8Array(wav)), mimeType: 'audio/wav' }
      } finally {
        await rm(dir, { recursive: true, force: true })
      }
    },
  }
}
