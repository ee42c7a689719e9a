import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { AppError } from '../../../shared/errors'
import { createSettingsProviders } from '../../llm'
import { defaultDataDir } from '../../platform'
import { openSettings } from '../../settings'
import { createSpeechModelStore, createVoiceService } from '../../voice'
import type { TranscribeCliOptions } from '../commandOptions'
import { UsageError } from '../program'
import { cliStreams, noticePrinter, processTextIo, type TextIo } from '../textIo'

export interface TranscribeIo extends TextIo {
  readStdin(): Promise<Uint8Array>
}

const processIo: TranscribeIo = {
  ...processTextIo,
  async readStdin() {
    const chunks: Buffer[] = []
    for await (const chunk of cliStreams().stdin) chunks.push(Buffer.from(chunk as Buffer))
    return new Uint8Array(Buffer.concat(chunks))
  },
}

/** `bureau transcribe FILE.wav`: the text of a recording, by an offline recognizer or the OpenAI-compatible one. */
export async function runTranscribe(
  file: string,
  options: TranscribeCliOptions,
  io: TranscribeIo = processIo,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  if (options.model && options.modelFile) throw new UsageError('give --model or --model-file, not both')
  const dataDir = options.dataDir ?? defaultDataDir(env)
  const notify = noticePrinter(io)
  const settings = await openSettings({ dataDir, notify, env: (name) => env[name] })
  const saved = settings.get().voice.stt
  const engine =
    options.engine ??
    (options.model || options.modelFile
      ? 'whisper'
      : saved.engine === 'web-speech'
        ? 'whisper'
        : saved.engine)
  if ((options.model || options.modelFile) && engine !== 'whisper')
    throw new UsageError('--model and --model-file choose a whisper model: use them with --engine whisper')
  const audio =
    file === '-'
      ? await io.readStdin()
      : await readFile(resolve(file)).catch((error: NodeJS.ErrnoException) => {
          throw new AppError(
            'NOT_FOUND',
            `cannot read ${file}: ${error.code === 'ENOENT' ? 'no such file' : (error.code ?? 'error')}`,
            { cause: error },
          )
        })
  if (audio.length === 0) throw new UsageError(`${file === '-' ? 'stdin' : file} is empty`)
  let modelFile = options.modelFile ? resolve(options.modelFile) : undefined
  if (options.model) {
    modelFile = await createSpeechModelStore({ dataDir }).whisperPath(options.model)
    if (!modelFile)
      throw new AppError(
        'NOT_FOUND',
        `The whisper model "${options.model}" is not installed: \`bureau models pull ${options.model}\`.`,
      )
  }
  const providers = await createSettingsProviders(settings, { dataDir, notify, env })
  const voice = createVoiceService({
    settings,
    provider: () => providers.resolve(),
    dataDir,
    ...(modelFile ? { whisperModelFile: modelFile } : {}),
  })
  const controller = new AbortController()
  const stop = () => controller.abort()
  process.once('SIGINT', stop)
  try {
    const result = await voice.transcribe(
      {
        audio,
        mimeType: 'audio/wav',
        engine,
        ...(options.language ? { language: options.language } : {}),
      },
      controller.signal,
    )
    if (options.json) io.out(`${JSON.stringify(result)}\n`)
    else io.out(`${result.text}\n`)
  } finally {
    process.off('SIGINT', stop)
    await voice.dispose()
  }
}
