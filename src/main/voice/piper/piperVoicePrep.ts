import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { AppError } from '../../../shared/errors'
import { withOnnxMetadata } from './onnxModelFile'

/** The parts of a Piper voice's `<voice>.onnx.json` that sherpa-onnx needs. */
const PiperVoiceConfig = z.looseObject({
  audio: z.looseObject({ sample_rate: z.number().int().min(4_000).max(192_000) }),
  espeak: z.looseObject({ voice: z.string().min(1).max(40) }),
  num_speakers: z.number().int().min(1).max(100_000),
  phoneme_id_map: z
    .record(z.string().min(1), z.array(z.number().int().min(0)).min(1))
    .refine((map) => Object.keys(map).length > 0, 'phoneme_id_map is empty'),
  language: z.looseObject({ name_english: z.string().min(1) }).optional(),
})
export type PiperVoiceConfig = z.infer<typeof PiperVoiceConfig>

/** sherpa-onnx's token table: one `<symbol> <id>` line per phoneme (a symbol may be a space). */
export function piperTokens(config: PiperVoiceConfig): string {
  return Object.entries(config.phoneme_id_map)
    .filter(([symbol]) => !symbol.includes('\n'))
    .map(([symbol, ids]) => `${symbol} ${ids[0]}\n`)
    .join('')
}

/** The metadata sherpa-onnx reads from a Piper model to run it (sample rate, speakers, espeak voice). */
export function piperMetadata(config: PiperVoiceConfig): Record<string, string> {
  return {
    model_type: 'vits',
    comment: 'piper',
    language: config.language?.name_english ?? config.espeak.voice,
    voice: config.espeak.voice,
    has_espeak: '1',
    n_speakers: String(config.num_speakers),
    sample_rate: String(config.audio.sample_rate),
  }
}

export function parsePiperConfig(text: string, name: string): PiperVoiceConfig {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new AppError('VALIDATION_FAILED', `${name} is not JSON: the voice's config is damaged.`, {
      cause: error,
    })
  }
  const parsed = PiperVoiceConfig.safeParse(json)
  if (!parsed.success)
    throw new AppError(
      'VALIDATION_FAILED',
      `${name} is not a Piper voice config (${parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join('.') || 'root'}: ${i.message}`)
        .join('; ')}).`,
    )
  return parsed.data
}

/** The name of the prepared model next to a voice's original `<voice>.onnx`. */
export function sherpaModelName(voice: string): string {
  return `${voice}.sherpa.onnx`
}

/**
 * Makes a voice as Piper publishes it (`<voice>.onnx` + `<voice>.onnx.json`) runnable by sherpa-onnx:
 * writes `tokens.txt` from the phoneme map and the model with sherpa's metadata added as
 * `<voice>.sherpa.onnx`, then removes the original model (the prepared one holds all of it).
 * Returns the names of the files the voice now consists of.
 */
export async function preparePiperVoice(dir: string, voice: string): Promise<string[]> {
  const configName = `${voice}.onnx.json`
  const config = parsePiperConfig(await readFile(join(dir, configName), 'utf8'), configName)
  const model = await readFile(join(dir, `${voice}.onnx`))
  const prepared = withOnnxMetadata(model, piperMetadata(config), `${voice}.onnx`)
  await writeFile(join(dir, 'tokens.txt'), piperTokens(config))
  await writeFile(join(dir, sherpaModelName(voice)), prepared)
  await rm(join(dir, `${voice}.onnx`), { force: true })
  return [sherpaModelName(voice), 'tokens.txt', configName]
}
