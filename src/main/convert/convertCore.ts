import { fitToBudget } from './budget'
import { detectFormat } from './detect'
import { ConvertError, FormatProblem } from './errors'
import { DeadlineExceeded } from './limits'
import { loadConverter } from './registry'
import type {
  ConvertContext,
  ConvertFormat,
  ConvertResult,
  FormatLimits,
  OcrEngine,
  VisionHook,
} from './types'

const MAX_NESTING = 3

export interface CoreSettings {
  keepDataUris: boolean
  acceptedText?: boolean
  maxChars: number | undefined
}

/** What one conversion may use: the limits per format, OCR and a vision model (both may be absent). */
export interface CoreEnvironment {
  limitsFor(format: ConvertFormat): FormatLimits
  ocr(): OcrEngine | undefined
  vision: VisionHook | undefined
}

const JSZIP_FAILURE =
  /^(?:Error:\s*)*(?:Bug :|Corrupted zip|End of data reached|Can't find end of central directory|Invalid\/unsupported zip)/i

export function describeFailure(format: ConvertFormat, error: unknown): FormatProblem {
  if (error instanceof FormatProblem) return error
  if (error instanceof DeadlineExceeded)
    return new FormatProblem('timeout', `conversion ${error.message} and was stopped`, { cause: error })
  if (error instanceof Error && error.name === 'AbortError')
    return new FormatProblem('cancelled', 'conversion was cancelled', { cause: error })
  const detail = error instanceof Error ? error.message : String(error)
  // JSZip (inside mammoth) words its failures for its own developers ("Bug : uncompressed data size mismatch").
  if (JSZIP_FAILURE.test(detail))
    return new FormatProblem(
      'damaged',
      `the ${format} file is damaged: its zip data does not unpack to what it declares. Re-save it from the program that made it, or use an undamaged copy`,
      { cause: error },
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
    { cause: error },
  )
}

/** Detects the format and runs its converter; archive members recurse here, to a limited depth. */
export async function convertBytes(
  input: { name: string; bytes: Uint8Array },
  settings: CoreSettings,
  signal: AbortSignal,
  env: CoreEnvironment,
  depth = 0,
): Promise<ConvertResult> {
  const warnings: string[] = []
  const detection = await detectFormat(input.name, input.bytes)
  if (detection.note) warnings.push(detection.note)
  const limits = env.limitsFor(detection.format)
  if (input.bytes.length > limits.maxBytes) {
    throw new FormatProblem(
      'too_large',
      `the file is ${(input.bytes.length / 2 ** 20).toFixed(1)} MB; the ${detection.format} limit is ${Math.round(limits.maxBytes / 2 ** 20)} MB`,
    )
  }
  const convert = await loadConverter(detection.format)
  const context: ConvertContext = {
    name: input.name,
    format: detection.format,
    bytes: input.bytes,
    keepDataUris: settings.keepDataUris,
    acceptedText: settings.acceptedText === true,
    maxChars: settings.maxChars,
    signal,
    warn: (message) => {
      // A reason that holds for every page (no vision model) is said once.
      if (!warnings.includes(message)) warnings.push(message)
    },
    ocr: env.ocr,
    vision: env.vision,
    convertMember: async (name, bytes) => {
      if (depth >= MAX_NESTING) throw new ConvertError(name, 'unsupported', 'archives are nested too deeply')
      try {
        return await convertBytes(
          { name, bytes },
          { ...settings, maxChars: undefined },
          signal,
          env,
          depth + 1,
        )
      } catch (error) {
        if (error instanceof ConvertError) throw error
        const problem = describeFailure(detection.format, error)
        throw new ConvertError(name, problem.failure, problem.message, { cause: problem })
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
