import { fitToBudget } from './budget'
import { cacheKey, createResultCache } from './cache'
import { detectFormat, extensionOf } from './detect'
import { ConvertError, FormatProblem } from './errors'
import { DeadlineExceeded, defaultLimits, withDeadline } from './limits'
import { createTesseractOcr } from './ocr/tesseractOcr'
import { converters } from './registry'
import {
  type ConvertContext,
  type ConvertFormat,
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
  /** Stops the OCR worker, if one was started. */
  dispose(): Promise<void>
}

const MAX_NESTING = 3

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

const JSZIP_FAILURE =
  /^(?:Error:\s*)*(?:Bug :|Corrupted zip|End of data reached|Can't find end of central directory|Invalid\/unsupported zip)/i

function describeFailure(format: ConvertFormat, error: unknown): FormatProblem {
  if (error instanceof FormatProblem) return error
  if (error instanceof DeadlineExceeded)
    return new FormatProblem('timeout', `conversion ${error.message} and was stopped`)
  if (error instanceof Error && error.name === 'AbortError')
    return new FormatProblem('cancelled', 'conversion was cancelled')
  const detail = error instanceof Error ? error.message : String(error)
  // JSZip (inside mammoth) words its failures for its own developers ("Bug : uncompressed data size mismatch").
  if (JSZIP_FAILURE.test(detail))
    return new FormatProblem(
      'damaged',
      `the ${format} file is damaged: its zip data does not unpack to what it declares. Re-save it from the program that made it, or use an undamaged copy`,
    )
  const short =
    detail
      .split('\n')[0]
      ?.replace(/^(Error:\s*)+/, '')
      .replace(/[^\p{L}\p{N}\p{P}\p{S}\s]|\uFFFD/gu, '')
      .replace(/\s+/g, ' ')
      .slice(0, 120) ?? ''
  // A library's TypeError says nothing to a user; its own parse errors usually do.
  const technical =
    error instanceof TypeError || error instanceof RangeError || error instanceof ReferenceError
  const suffix = short && !technical ? ` (${short.replace(/^error:\s*/i, '')})` : ''
  return new FormatProblem(
    'damaged',
    `the ${format} file could not be read; it may be damaged or truncated${suffix}`,
  )
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

  async function visionFor(format: ConvertFormat, signal: AbortSignal | undefined): Promise<VisionChoice> {
    if (options.vision) return { kind: 'model', id: 'hook', hook: options.vision }
    if (!options.chooseVision || !VISION_FORMATS.has(format)) return { kind: 'off' }
    try {
      return await options.chooseVision(signal)
    } catch {
      return { kind: 'unavailable', reason: 'the vision model could not be set up' }
    }
  }

  async function run(
    input: { name: string; bytes: Uint8Array },
    settings: { keepDataUris: boolean; maxChars: number | undefined },
    signal: AbortSignal,
    depth: number,
    vision: VisionHook | undefined,
  ): Promise<ConvertResult> {
    const warnings: string[] = []
    const detection = detectFormat(input.name, input.bytes)
    if (detection.note) warnings.push(detection.note)
    const limits = limitsFor(detection.format)
    if (input.bytes.length > limits.maxBytes) {
      throw new FormatProblem(
        'too_large',
        `the file is ${(input.bytes.length / 2 ** 20).toFixed(1)} MB; the ${detection.format} limit is ${Math.round(limits.maxBytes / 2 ** 20)} MB`,
      )
    }
    const convert = await converters[detection.format]()
    const context: ConvertContext = {
      name: input.name,
      format: detection.format,
      bytes: input.bytes,
      keepDataUris: settings.keepDataUris,
      maxChars: settings.maxChars,
      signal,
      warn: (message) => {
        // A reason that holds for every page (no vision model) is said once.
        if (!warnings.includes(message)) warnings.push(message)
      },
      ocr,
      vision,
      convertMember: async (name, bytes) => {
        if (depth >= MAX_NESTING)
          throw new ConvertError(name, 'unsupported', 'archives are nested too deeply')
        try {
          return await run({ name, bytes }, { ...settings, maxChars: undefined }, signal, depth + 1, vision)
        } catch (error) {
          if (error instanceof ConvertError) throw error
          const problem = describeFailure(detection.format, error)
          throw new ConvertError(name, problem.failure, problem.message)
        }
      },
    }
    let output: Awaited<ReturnType<typeof convert>>
    try {
      output = await convert(context)
    } catch (error) {
      throw describeFailure(detection.format, signal.aborted ? signal.reason : error)
    }
    const fitted = fitToBudget(output.markdown, settings.maxChars)
    const result: ConvertResult = {
      markdown: fitted.markdown,
      format: detection.format,
      warnings,
      truncated: fitted.truncated || output.truncated === true,
    }
    if (output.title) result.title = output.title
    return result
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
        maxChars: parsedOptions.data.maxChars,
      }
      let format: ConvertFormat | undefined
      try {
        format = detectFormat(input.name, input.bytes).format
        const budgetInside = BUDGET_INSIDE.has(format)
        const runSettings = budgetInside ? settings : { ...settings, maxChars: undefined }
        const choice = await visionFor(format, parsedOptions.data.signal)
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
        const result = await withDeadline(timeoutMs, parsedOptions.data.signal, (signal) =>
          run(input, runSettings, signal, 0, vision.hook),
        )
        // A model that failed once may work next time: its OCR stand-in is not kept.
        if (useCache && !vision.failed()) await cache.set(key, result)
        return budgeted(result)
      } catch (error) {
        if (error instanceof ConvertError) throw error
        const problem = describeFailure(format ?? 'text', error)
        throw new ConvertError(input.name, problem.failure, problem.message)
      }
    },
    stats: () => ({ ...counts }),
    async dispose() {
      await ocrEngine?.dispose()
      ocrEngine = undefined
    },
  }
}
