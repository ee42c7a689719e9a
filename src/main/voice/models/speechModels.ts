import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { AppError } from '../../../shared/errors'
import { type DownloadProgress, downloadFile } from '../../models'
import { preparePiperVoice } from '../piper/piperVoicePrep'

const SpeechFile = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9._-]+$/),
  url: z.url({ protocol: /^https?$/ }),
  /** Approximate size in bytes as published; the download reports the real one. */
  sizeBytes: z.number().int().positive(),
  /** Lowercase hex; `null` until checked (the download then records what it got). */
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
})

export const SpeechModelEntry = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-zA-Z0-9._-]{0,79}$/),
  kind: z.enum(['whisper', 'piper']),
  name: z.string().min(1),
  /** ISO-639-1, or `multi` for a multilingual recognizer. */
  language: z.string().min(2),
  licence: z.string().min(1),
  files: z.array(SpeechFile).min(1),
  notes: z.string().optional(),
})
export type SpeechModelEntry = z.infer<typeof SpeechModelEntry>

const WHISPER = 'https://huggingface.co/ggerganov/whisper.cpp/resolve/main'
const whisper = (
  id: string,
  name: string,
  language: string,
  sizeBytes: number,
  sha256: string,
): SpeechModelEntry => ({
  id: `whisper-${id}`,
  kind: 'whisper',
  name,
  language,
  licence: 'MIT (OpenAI Whisper weights, converted by whisper.cpp)',
  files: [{ name: `ggml-${id}.bin`, url: `${WHISPER}/ggml-${id}.bin`, sizeBytes, sha256 }],
})
/** Piper's own voice repository, at a tagged revision so a file never changes under its digest. */
const PIPER = 'https://huggingface.co/rhasspy/piper-voices/resolve/v1.0.0'
const piper = (
  voice: string,
  licence: string,
  sizeBytes: number,
  sha256: { model: string; config: string } | null = null,
): SpeechModelEntry => {
  const [locale = '', speaker = '', quality = ''] = voice.split('-')
  const base = `${PIPER}/${locale.split('_')[0]}/${locale}/${speaker}/${quality}`
  return {
    id: `piper-${voice}`,
    kind: 'piper',
    name: `Piper ${voice}`,
    language: locale.split('_')[0] ?? 'en',
    licence,
    files: [
      { name: `${voice}.onnx`, url: `${base}/${voice}.onnx`, sizeBytes, sha256: sha256?.model ?? null },
      {
        name: `${voice}.onnx.json`,
        url: `${base}/${voice}.onnx.json`,
        sizeBytes: 5_000,
        sha256: sha256?.config ?? null,
      },
    ],
    notes: "Phonemized with espeak-ng's data (the system's espeak-ng install).",
  }
}

/**
 * The speech models Bureau offers, with the sizes their publishers state. Digests are pinned where a
 * sha256 of the published file could be confirmed from two independent sources (whisper.cpp's models and
 * two of Piper's English voices); the other voices record the sha256 their first download got, and the
 * list says they are not pinned.
 */
export const SPEECH_CATALOGUE: SpeechModelEntry[] = [
  whisper(
    'tiny.en',
    'Whisper tiny (English)',
    'en',
    77_704_715,
    '921e4cf8686fdd993dcd081a5da5b6c365bfde1162e72b08d75ac75289920b1f',
  ),
  whisper(
    'tiny',
    'Whisper tiny (multilingual)',
    'multi',
    77_691_713,
    'be07e048e1e599ad46341c8d2a135645097a538221678b7acdd1b1919c6e1b21',
  ),
  whisper(
    'base.en',
    'Whisper base (English)',
    'en',
    147_964_211,
    'a03779c86df3323075f5e796cb2ce5029f00ec8869eee3fdfb897afe36c6d002',
  ),
  whisper(
    'base',
    'Whisper base (multilingual)',
    'multi',
    147_951_465,
    '60ed5bc3dd14eea856493d334349b405782ddcaf0028d4b5df4088345fba2efe',
  ),
  whisper(
    'small.en',
    'Whisper small (English)',
    'en',
    487_614_201,
    'c6138d6d58ecc8322097e0f987c32f1be8bb0a18532a3f88f734d1bbf9c41e5d',
  ),
  whisper(
    'small',
    'Whisper small (multilingual)',
    'multi',
    487_601_967,
    '1be3a9b2063867b937e64e2ec7483364a79917e157fa98c5d94b5c1fffea987b',
  ),
  piper('en_US-amy-medium', "the dataset's licence, in the voice's MODEL_CARD", 63_201_294, {
    model: 'b3a6e47b57b8c7fbe6a0ce2518161a50f59a9cdd8a50835c02cb02bdd6206c18',
    config: '95a23eb4d42909d38df73bb9ac7f45f597dbfcde2d1bf9526fdeaf5466977d77',
  }),
  piper('en_US-lessac-medium', "the dataset's licence, in the voice's MODEL_CARD", 63_201_294, {
    model: '5efe09e69902187827af646e1a6e9d269dee769f9877d17b16b1b46eeaaf019f',
    config: 'efe19c417bed055f2d69908248c6ba650fa135bc868b0e6abb3da181dab690a0',
  }),
  piper('en_US-ljspeech-medium', 'Public domain (LJ Speech)', 63_201_294),
  piper('de_DE-thorsten-medium', 'CC0-1.0 (Thorsten voice)', 63_201_294),
  piper('fr_FR-siwis-medium', 'CC-BY-4.0 (SIWIS)', 63_201_294),
  piper('es_ES-davefx-medium', 'CC0-1.0 (davefx)', 63_201_294),
]

export interface InstalledSpeechModel {
  id: string
  kind: 'whisper' | 'piper'
  dir: string
  sizeBytes: number
  files: { name: string; sha256: string }[]
  installedAt: string | null
}

const Receipt = z.looseObject({
  id: z.string(),
  kind: z.enum(['whisper', 'piper']),
  files: z.array(z.object({ name: z.string(), sha256: z.string() })),
  installedAt: z.string(),
})

export interface SpeechModelStoreOptions {
  dataDir: string
  catalogue?: SpeechModelEntry[]
  fetch?: typeof fetch
  /**
   * A mirror that serves each file at `<mirror>/<model id>/<file name>` (an organisation's own copy,
   * an offline test server); default `BUREAU_SPEECH_MODELS_URL`. Pinned digests still apply.
   */
  mirror?: string | undefined
}

/** The catalogue with every file fetched from the mirror instead, when one is set. */
function mirrored(catalogue: SpeechModelEntry[], mirror: string | undefined): SpeechModelEntry[] {
  if (!mirror) return catalogue
  const base = z.url({ protocol: /^https?$/ }).safeParse(mirror)
  if (!base.success)
    throw new AppError(
      'VALIDATION_FAILED',
      `BUREAU_SPEECH_MODELS_URL must be an http:// or https:// URL, not ${JSON.stringify(mirror.slice(0, 80))}.`,
    )
  const root = base.data.replace(/\/+$/, '')
  return catalogue.map((e) => ({
    ...e,
    files: e.files.map((f) => ({ ...f, url: `${root}/${e.id}/${f.name}` })),
  }))
}

/** `<data-dir>/speech/<id>/`: one folder per installed speech model with a `speech-model.json` receipt. */
export function speechModelsDir(dataDir: string): string {
  return join(dataDir, 'speech')
}

/** Installed speech models: downloads with progress, resume and verification; removal. */
export function createSpeechModelStore(options: SpeechModelStoreOptions) {
  const dir = speechModelsDir(options.dataDir)
  const catalogue = mirrored(
    options.catalogue ?? SPEECH_CATALOGUE,
    options.mirror ?? (process.env.BUREAU_SPEECH_MODELS_URL || undefined),
  )
  const entry = (id: string) => {
    const found = catalogue.find((e) => e.id === id)
    if (!found)
      throw new AppError(
        'NOT_FOUND',
        `"${id}" is not a speech model Bureau knows; \`bureau models list\` shows them (${catalogue
          .slice(0, 3)
          .map((e) => e.id)
          .join(', ')}, …).`,
      )
    return found
  }

  async function read(id: string): Promise<InstalledSpeechModel | undefined> {
    const folder = join(dir, id)
    const receipt = await readFile(join(folder, 'speech-model.json'), 'utf8')
      .then((text) => Receipt.parse(JSON.parse(text)))
      .catch(() => undefined)
    if (!receipt) return undefined
    let sizeBytes = 0
    for (const file of receipt.files) {
      const info = await stat(join(folder, file.name)).catch(() => undefined)
      if (!info?.isFile()) return undefined
      sizeBytes += info.size
    }
    return {
      id,
      kind: receipt.kind,
      dir: folder,
      sizeBytes,
      files: receipt.files,
      installedAt: receipt.installedAt,
    }
  }

  /** The sha256 of a file a stopped download finished, if it is there and matches the pinned digest. */
  async function finishedFile(path: string, sha256: string | null): Promise<string | undefined> {
    const info = await stat(path).catch(() => undefined)
    if (!info?.isFile()) return undefined
    const digest = createHash('sha256')
    for await (const chunk of createReadStream(path)) digest.update(chunk as Buffer)
    const hex = digest.digest('hex')
    if (sha256 && hex !== sha256) {
      await rm(path, { force: true })
      return undefined
    }
    return hex
  }

  /**
   * The files a model consists of once installed. A Piper voice as Piper publishes it (model + config,
   * no token table) is made runnable by sherpa-onnx here, so a download that cannot be used fails now,
   * with its damaged files discarded, rather than at the first sentence.
   */
  async function preparedFiles(
    model: SpeechModelEntry,
    partial: string,
    downloaded: { name: string; sha256: string }[],
  ): Promise<{ name: string; sha256: string }[]> {
    const onnx = model.files.find((f) => f.name.endsWith('.onnx'))
    if (model.kind !== 'piper' || !onnx || model.files.some((f) => f.name === 'tokens.txt')) return downloaded
    let names: string[]
    try {
      names = await preparePiperVoice(partial, onnx.name.slice(0, -'.onnx'.length))
    } catch (error) {
      await rm(partial, { recursive: true, force: true })
      throw new AppError(
        'VALIDATION_FAILED',
        `The speech model "${model.id}" was downloaded but is not a usable Piper voice, so it was discarded: ${(error as Error).message}`,
        { cause: error },
      )
    }
    const out: { name: string; sha256: string }[] = []
    for (const name of names) {
      const known = downloaded.find((f) => f.name === name)
      out.push(known ?? { name, sha256: (await finishedFile(join(partial, name), null)) ?? '' })
    }
    return out
  }

  const store = {
    catalogue: () => catalogue,
    entry,
    /** Bytes of a stopped download kept in `<id>.partial/` to resume. */
    async partialBytes(id: string): Promise<number> {
      const folder = join(dir, `${id}.partial`)
      const names = await readdir(folder).catch(() => [] as string[])
      let total = 0
      for (const name of names) total += (await stat(join(folder, name)).catch(() => undefined))?.size ?? 0
      return total
    },
    dir,
    async list(): Promise<InstalledSpeechModel[]> {
      const names = await readdir(dir).catch(() => [] as string[])
      const out: InstalledSpeechModel[] = []
      for (const name of names.sort()) {
        if (name.endsWith('.partial')) continue
        const model = await read(name)
        if (model) out.push(model)
      }
      return out
    },
    get: read,
    /** The model file of an installed whisper model. */
    async whisperPath(id: string): Promise<string | undefined> {
      const model = await read(id)
      const file = model?.kind === 'whisper' ? model.files[0] : undefined
      return model && file ? join(model.dir, file.name) : undefined
    },

    /**
     * Downloads every file of a model into `<id>.partial/` (each resumable), verifies each digest,
     * then renames the folder into place and writes the receipt, read back as the result.
     */
    async pull(
      id: string,
      pull: { signal?: AbortSignal; onProgress?: (file: string, progress: DownloadProgress) => void } = {},
    ): Promise<InstalledSpeechModel> {
      const model = entry(id)
      const partial = join(dir, `${id}.partial`)
      await mkdir(partial, { recursive: true })
      const files: { name: string; sha256: string }[] = []
      try {
        for (const file of model.files) {
          // A file a stopped download already finished (and verified, where pinned) is not fetched again.
          const done = await finishedFile(join(partial, file.name), file.sha256)
          if (done) {
            files.push({ name: file.name, sha256: done })
            continue
          }
          const result = await downloadFile({
            url: file.url,
            target: join(partial, file.name),
            sha256: file.sha256,
            expectedBytes: file.sizeBytes,
            ...(pull.signal ? { signal: pull.signal } : {}),
            ...(options.fetch ? { fetch: options.fetch } : {}),
            onProgress: (progress) => pull.onProgress?.(file.name, progress),
          })
          await rename(result.path, join(partial, file.name))
          files.push({ name: file.name, sha256: result.sha256 })
        }
      } catch (error) {
        // A failure that kept no bytes to resume from leaves no folder behind.
        if ((await store.partialBytes(id)) === 0) await rm(partial, { recursive: true, force: true })
        throw error
      }
      const downloaded = files
      const stored = await preparedFiles(model, partial, downloaded)
      const installedAt = new Date().toISOString()
      await writeFile(
        join(partial, 'speech-model.json'),
        `${JSON.stringify({ id, kind: model.kind, source: model.files.map((f) => f.url), downloaded, files: stored, installedAt }, null, 2)}\n`,
      )
      await rm(join(dir, id), { recursive: true, force: true })
      await rename(partial, join(dir, id))
      const installed = await read(id)
      if (!installed)
        throw new AppError(
          'HANDLER_FAILED',
          `The speech model "${id}" was downloaded but cannot be read back.`,
        )
      return installed
    },

    async remove(id: string): Promise<void> {
      if (!/^[a-z0-9][a-zA-Z0-9._-]{0,79}$/.test(id))
        throw new AppError('VALIDATION_FAILED', `"${id}" is not a model id.`)
      const installed = await read(id)
      const hasPartial = await stat(join(dir, `${id}.partial`)).then(
        () => true,
        () => false,
      )
      if (!installed && !hasPartial) throw new AppError('NOT_FOUND', `No installed speech model "${id}".`)
      await rm(join(dir, id), { recursive: true, force: true })
      await rm(join(dir, `${id}.partial`), { recursive: true, force: true })
    },
  }
  return store
}

export type SpeechModelStore = ReturnType<typeof createSpeechModelStore>
