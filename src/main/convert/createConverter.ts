import { fitToBudget } from './budget'
import { cacheKey, createResultCache } from './cache'
import { describeFailure } from './convertCore'
import { detectFormat } from './detect'
import { ConvertError } from './errors'
import { extensionOf } from './extensions'
import { defaultLimits } from './limits'
import { createTesseractOcr } from './ocr/tesseractOcr'
import { prestartWorkers } from './prestart'
import {
  ConvertFormat,
  ConvertInput,
  ConvertOptions,
  type ConvertResult,
  type FormatLimits,
  type OcrEngine,
  type VisionChoice,
  type VisionHook,
  type VisionSource,
} from './types'
import { hookFor, visionCacheId } from './visionFallback'
import { runInWorker } from './worker/runInWorker'

export interface ConverterOptions {
  /** Folder for the on-disk result cache (by content hash); memory-only when absent. */
  cacheDir?: string
  /** Text recognition for images and scanned pages; default: offline tesseract.js, `false` to disable. */
  ocr?: OcrEngine | false
  /** An image-capable model; when given it describes images before OCR is tried. */
  vision?: VisionHook
  /**
   * Asked once per conversion of a file that may hold pictures (images, PDFs, zips) when `vision` is
   * not given: the app's setting and active provider decide there and then.
   */
  chooseVision?: VisionSource
  limits?: Partial<Record<ConvertFormat, Partial<FormatLimits>>>
}

/** What a converter did since it was created: real conversions and answers from its result cache. */
export interface ConverterStats {
  conversions: number
  cacheHits: number
}

export interface Converter {
  convert(input: ConvertInput, options?: ConvertOptions): Promise<ConvertResult>
  stats(): ConverterStats
  /**
   * A batch of these files is coming: start the workers it will use (up to the pool's size) and load the
   * libraries their extensions point to, while the caller reads the files; when some may hold pictures,
   * start choosing who reads them too.
   */
  prepare?(fileNames: string[]): void
  /** Stops the OCR worker, if one was started. */
  dispose(): Promise<void>
}

/** Formats whose conversion may meet a picture (an image, a scanned page, an archive member). */
const VISION_FORMATS = new Set<ConvertFormat>(['image', 'pdf', 'zip'])

/**
 * Formats whose converter reads `maxChars` itself (large sheets are summarised to fit). Every other
 * format is converted whole, cached whole and cut afterwards, so an attachment (with a budget) and the
 * `convert` toolset (without) share one conversion: one OCR run, one request to a vision model.
 */
const BUDGET_INSIDE = new Set<ConvertFormat>(['xlsx', 'xls', 'csv', 'tsv'])

function withBudget(result: ConvertResult, maxChars: number | undefined): ConvertResult {
  const fitted = fitToBudget(result.markdown, maxChars)
  return fitted.truncated ? { ...result, markdown: fitted.markdown, truncated: true } : result
}

export function createConverter(options: ConverterOptions = {}): Converter {
  const cache = createResultCache(options.cacheDir ? { dir: options.cacheDir } : {})
  const counts: ConverterStats = { conversions: 0, cacheHits: 0 }
  let ocrEngine: OcrEngine | undefined = options.ocr === false ? undefined : options.ocr
  const ocr = () => {
    if (options.ocr === false) return undefined
    ocrEngine ??= createTesseractOcr()
    return ocrEngine
  }
  const limitsFor = (format: ConvertFormat): FormatLimits => ({
    ...defaultLimits[format],
    ...options.limits?.[format],
  })
  const allLimits = Object.fromEntries(
    ConvertFormat.options.map((format) => [format, limitsFor(format)]),
  ) as Record<ConvertFormat, FormatLimits>

  async function visionFor(
    format: ConvertFormat,
    signal: AbortSignal | undefined,
    localOnly: boolean,
  ): Promise<VisionChoice> {
    if (localOnly) return { kind: 'off' }
    if (options.vision) return { kind: 'model', id: 'hook', hook: options.vision }
    if (!options.chooseVision || !VISION_FORMATS.has(format)) return { kind: 'off' }
    try {
      return await options.chooseVision(signal)
    } catch {
      return { kind: 'unavailable', reason: 'the vision model could not be set up' }
    }
  }

  return {
    async convert(rawInput, rawOptions = {}) {
      const parsedInput = ConvertInput.safeParse(rawInput)
      const name = typeof rawInput?.name === 'string' && rawInput.name ? rawInput.name : 'file'
      if (!parsedInput.success)
        throw new ConvertError(name, 'failed', 'the request is missing the file name or bytes')
      const parsedOptions = ConvertOptions.safeParse(rawOptions)
      if (!parsedOptions.success) throw new ConvertError(name, 'failed', 'the conversion options are invalid')
      const input = parsedInput.data
      const settings = {
        keepDataUris: parsedOptions.data.keepDataUris ?? false,
        ...(parsedOptions.data.acceptedText === true && { acceptedText: true }),
        maxChars: parsedOptions.data.maxChars,
      }
      let format: ConvertFormat | undefined
      try {
        format = (await detectFormat(input.name, input.bytes)).format
        const budgetInside = BUDGET_INSIDE.has(format)
        const runSettings = budgetInside ? settings : { ...settings, maxChars: undefined }
        const choice = await visionFor(
          format,
          parsedOptions.data.signal,
          parsedOptions.data.localOnly === true,
        )
        const key = cacheKey(input.bytes, {
          ...runSettings,
          ext: extensionOf(input.name),
          ...(VISION_FORMATS.has(format) && { vision: visionCacheId(choice) }),
        })
        const budgeted = (result: ConvertResult) =>
          budgetInside ? result : withBudget(result, settings.maxChars)
        const useCache = parsedOptions.data.noCache !== true
        const cached = useCache ? await cache.get(key) : undefined
        if (cached) {
          counts.cacheHits++
          return budgeted(cached)
        }
        const vision = hookFor(choice)
        const timeoutMs = limitsFor(format).timeoutMs
        counts.conversions++
        const result = await runInWorker(
          {
            input,
            settings: runSettings,
            limits: allLimits,
            timeoutMs,
            hasOcr: options.ocr !== false,
            hasVision: vision.hook !== undefined,
          },
          { ocr, vision: vision.hook },
          parsedOptions.data.signal,
        )
        // A model that failed once may work next time: its OCR stand-in is not kept.
        if (useCache && !vision.failed()) await cache.set(key, result)
        return budgeted(result)
      } catch (error) {
        if (error instanceof ConvertError) throw error
        const problem = describeFailure(format ?? 'text', error)
        throw new ConvertError(input.name, problem.failure, problem.message, { cause: problem })
      }
    },
    stats: () => ({ ...counts }),
    prepare(fileNames) {
      const formats = prestartWorkers(fileNames)
      // The CLI's choice opens the settings (their module and its dependencies take hundreds of ms to
      // load); asked now, that overlaps the workers' start instead of holding back the first PDF's job.
      // The answer is asked for again per conversion (the CLI's sources keep what they opened).
      if (!options.vision && [...formats].some((format) => VISION_FORMATS.has(format)))
        void options.chooseVision?.().catch(() => {})
    },
    async dispose() {
      await ocrEngine?.dispose()
      ocrEngine = undefined
    },
  }
}
