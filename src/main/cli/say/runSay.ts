import { stat, writeFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { AppError } from '../../../shared/errors'
import { createSettingsProviders } from '../../llm'
import { defaultDataDir } from '../../platform'
import { openSettings } from '../../settings'
import { concatWav, createSystemPlayer, createVoiceService, type SpeechAudio, speakText } from '../../voice'
import type { SayCliOptions } from '../commandOptions'
import { UsageError } from '../program'
import { cliStreams, noticePrinter, processTextIo, type TextIo } from '../textIo'

export interface SayIo extends TextIo {
  readStdin(): Promise<string>
}

const processIo: SayIo = {
  ...processTextIo,
  async readStdin() {
    let text = ''
    for await (const chunk of cliStreams().stdin) text += String(chunk)
    return text
  },
}

/** Pause between sentences in a written file, about what a player's start-up adds when speaking live. */
const SENTENCE_GAP_MS = 150

/**
 * `bureau say "text"`: the text goes through the Voice panel's chunker and ordered TTS queue, then to
 * a system player, or into one WAV file with `--out`.
 */
export async function runSay(
  rawText: string | undefined,
  options: SayCliOptions,
  io: SayIo = processIo,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const dataDir = options.dataDir ?? defaultDataDir(env)
  const notify = noticePrinter(io)
  const settings = await openSettings({ dataDir, notify, env: (name) => env[name] })
  const providers = await createSettingsProviders(settings, { dataDir, notify, env })
  const voice = createVoiceService({ settings, provider: () => providers.resolve() })
  const {
    engine,
    voice: voiceName,
    rate,
  } = voice.speechEngine({
    engine: options.engine,
    voice: options.voice,
    rate: options.rate,
  })

  if (options.listVoices) {
    const info = (await voice.engines()).tts.find((e) => e.id === engine.id)
    if (info && !info.available)
      throw new AppError('UNAVAILABLE', info.reason ?? `${engine.id} is not available.`)
    for (const v of info?.voices ?? []) io.out(`${v.id}\t${v.name}\n`)
    return
  }

  const text = rawText === undefined || rawText === '-' ? await io.readStdin() : rawText
  if (text.trim() === '')
    throw new UsageError('nothing to say: give the text as an argument or on stdin with "-"')

  // Checked before synthesis so a bad --out fails at once instead of after the whole text is spoken.
  if (options.out) await checkOutFolder(options.out)

  const controller = new AbortController()
  const stop = () => controller.abort()
  process.once('SIGINT', stop)
  const clips: Uint8Array[] = []
  const player = options.out ? undefined : createSystemPlayer()
  let firstError: unknown
  try {
    const result = await speakText({
      text,
      engine,
      voice: voiceName,
      rate,
      signal: controller.signal,
      async play(audio: SpeechAudio, _sentence, signal) {
        if (player) await player.play(audio.audio, signal)
        else clips.push(audio.audio)
      },
      onEvent(event) {
        if (event.type === 'error') firstError ??= event.error
      },
    })
    if (result.status === 'cancelled') throw new AppError('CANCELLED', 'Cancelled.')
    if (result.spoken.length === 0) {
      if (firstError instanceof AppError) throw firstError
      throw new AppError('HANDLER_FAILED', `${engine.id} produced no audio.`)
    }
    if (result.failed.length > 0)
      io.err(`warning: ${result.failed.length} of ${result.sentences.length} sentences could not be spoken\n`)
    if (options.out) {
      const wav = concatWav(clips, SENTENCE_GAP_MS)
      const path = resolve(options.out)
      await writeFile(path, wav).catch((error: unknown) => {
        throw cannotWrite(options.out!, error)
      })
      const seconds = ((wav.length - 44) / bytesPerSecond(wav)).toFixed(1)
      io.out(`${options.out}: ${result.spoken.length} sentences, ${seconds} s (${engine.id})\n`)
    }
  } finally {
    process.off('SIGINT', stop)
    await player?.dispose()
    await voice.dispose()
  }
}

async function checkOutFolder(out: string): Promise<void> {
  const folder = await stat(dirname(resolve(out))).catch((error: unknown) => {
    throw cannotWrite(out, error)
  })
  if (!folder.isDirectory()) throw cannotWrite(out, 'ENOTDIR')
}

const WRITE_PROBLEMS: Record<string, string> = {
  ENOENT: 'the folder does not exist',
  ENOTDIR: 'a part of the path is not a folder',
  EISDIR: 'it is a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
}

/** The user's own --out path, with the reason in words instead of a raw errno message. */
function cannotWrite(out: string, error: unknown): AppError {
  const code = typeof error === 'string' ? error : (error as { code?: unknown } | null)?.code
  const problem = typeof code === 'string' ? WRITE_PROBLEMS[code] : undefined
  return new AppError('HANDLER_FAILED', `cannot write ${out}: ${problem ?? 'the file could not be written'}`)
}

function bytesPerSecond(wav: Uint8Array): number {
  const view = new DataView(wav.buffer, wav.byteOffset, wav.byteLength)
  return view.getUint32(28, true) || 1
}
