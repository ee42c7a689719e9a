import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AppError } from '../../../shared/errors'
import type { EngineState, SpeechRecognizer } from '../service/speechRecognizer'
import { findOnPath, runProgram } from '../system/runProgram'
import { encodeWav, RECOGNIZER_RATE } from '../wav/pcm'

const PROGRAM = 'pocketsphinx_continuous'
/** Where Debian's pocketsphinx-en-us puts the US English model. */
const DEBIAN_MODEL = '/usr/share/pocketsphinx/model/en-us'
export const POCKETSPHINX_INSTALL = 'sudo apt install pocketsphinx pocketsphinx-en-us'

export interface PocketsphinxOptions {
  /** The program (default: found on PATH). */
  command?: string
  platform?: NodeJS.Platform
  /** The model folder to check for (default: Debian's en-us). */
  modelDir?: string
}

/**
 * Debian's PocketSphinx (5prealpha) as a system engine: each utterance goes to
 * `pocketsphinx_continuous -infile` as a 16 kHz WAV; it prints one line per segment it hears. It has
 * only the US English model, so it is a fallback beside whisper, not a replacement.
 */
export function createPocketsphinxEngine(options: PocketsphinxOptions = {}): SpeechRecognizer {
  const platform = options.platform ?? process.platform
  const modelDir = options.modelDir ?? DEBIAN_MODEL
  const command = async () => options.command ?? (await findOnPath(PROGRAM))
  return {
    id: 'pocketsphinx',
    async status(): Promise<EngineState> {
      if (platform !== 'linux')
        return {
          state: 'unavailable',
          reason:
            'PocketSphinx is offered on Linux (Debian, Ubuntu), where it is a package; use whisper here.',
        }
      if (!(await command()) || !existsSync(modelDir))
        return {
          state: 'needs-install',
          reason: `PocketSphinx is not installed. Install it with \`${POCKETSPHINX_INSTALL}\`, then reopen Bureau.`,
        }
      return { state: 'ready' }
    },
    async transcribe(request, signal) {
      if (request.language && !/^en\b/i.test(request.language))
        throw new AppError(
          'UNSUPPORTED',
          `PocketSphinx has only its US English model here, not "${request.language}": choose whisper for other languages.`,
        )
      const program = await command()
      if (!program)
        throw new AppError('UNAVAILABLE', `PocketSphinx is not installed: \`${POCKETSPHINX_INSTALL}\`.`)
      const dir = await mkdtemp(join(tmpdir(), 'bureau-sphinx-'))
      try {
        const file = join(dir, 'utterance.wav')
        await writeFile(file, encodeWav(request.pcm, RECOGNIZER_RATE))
        const heard: string[] = []
        const result = await runProgram(
          'PocketSphinx',
          program,
          ['-infile', file, '-samprate', String(RECOGNIZER_RATE), '-logfn', '/dev/null'],
          {
            signal,
            onLine: (line) => {
              if (!line.trim()) return
              heard.push(line.trim())
              request.onPartial?.(heard.join(' '))
            },
          },
        )
        if (result.code !== 0)
          throw new AppError(
            'HANDLER_FAILED',
            `PocketSphinx failed: ${result.stderr.trim().split('\n').at(-1) || `exit ${result.code}`}`,
          )
        return { text: heard.join(' '), language: 'en' }
      } finally {
        await rm(dir, { recursive: true, force: true })
      }
    },
    async dispose() {},
  }
}
