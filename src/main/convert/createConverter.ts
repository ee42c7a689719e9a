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
  type VisionHook,
} from './types'

export interface ConverterOptions {
  /** Folder for the on-disk result cache (by content hash); memory-only when absent. */
  cacheDir?: string
  /** Text recognition for images and scanned pages; default: offline tesseract.js, `false` to disable. */
  ocr?: OcrEngine | false
  /** An image-capable model; when given it describes images before OCR is tried. */
  vision?: VisionHook
  limits?: Partial<Record<ConvertFormat, Partial<FormatLimits>>>
}

export interface Converter {
  convert(input: ConvertInput, options?: ConvertOptions): Promise<ConvertResult>
  /** Stops the OCR worker, if one was started. */
  dispose(): Promise<void>
}

const MAX_NESTING = 3

function describeFailure(format: ConvertFormat, error: unknown): FormatProblem {
  if (error instanceof FormatProblem) return error
  if (error instanceof DeadlineExceeded)
    return new FormatProblem('timeout', `conversion ${error.message} and was stopped`)
  if (error instanceof Error && error.name === 'AbortError')
    return new FormatProblem('cancelled', 'conversion was cancelled')
  const detail = error instanceof Error ? error.message : String(error)
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

  async function run(
    input: { name: string; bytes: Uint8Array },
    settings: { keepDataUris: boolean; maxChars: number | undefined },
    signal: AbortSignal,
    depth: number,
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
      warn: (message) => warnings.push(message),
      ocr,
      vision: options.vision,
      convertMember: async (name, bytes) => {
        if (depth >= MAX_NESTING)
          throw new ConvertError(name, 'unsupported', 'archives are nested too deeply')
        try {
          return await run({ name, bytes }, { ...settings, maxChars: undefined }, signal, depth + 1)
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
      const key = cacheKey(input.bytes, { ...settings, ext: extensionOf(input.name) })
      const cached = await cache.get(key)
      if (cached) return cached
      let format: ConvertFormat | undefined
      try {
        format = detectFormat(input.name, input.bytes).format
        const timeoutMs = limitsFor(format).timeoutMs
        const result = await withDeadline(timeoutMs, parsedOptions.data.signal, (signal) =>
          run(input, settings, signal, 0),
        )
        await cache.set(key, result)
        return result
      } catch (error) {
        if (error instanceof ConvertError) throw error
        const problem = describeFailure(format ?? 'text', error)
        throw new ConvertError(input.name, problem.failure, problem.message)
      }
    },
    async dispose() {
      await ocrEngine?.dispose()
      ocrEngine = undefined
    },
  }
}
