import { z } from 'zod'

/** Every format the registry can convert. */
export const ConvertFormat = z.enum([
  'docx',
  'pdf',
  'xlsx',
  'xls',
  'csv',
  'tsv',
  'pptx',
  'html',
  'text',
  'markdown',
  'json',
  'ipynb',
  'feed',
  'epub',
  'zip',
  'image',
])
export type ConvertFormat = z.infer<typeof ConvertFormat>

export const ConvertInput = z.object({
  /** The file name as the user sees it (used for messages and as a format hint, never as a path). */
  name: z.string().min(1).max(1024),
  // z.custom keeps the plain Uint8Array type (Buffer and views over any ArrayBuffer are accepted).
  bytes: z.custom<Uint8Array>((value) => value instanceof Uint8Array, 'bytes must be a Uint8Array'),
})
export type ConvertInput = z.infer<typeof ConvertInput>

export const ConvertOptions = z.object({
  /** Character budget for the Markdown of this file; longer output is summarised or cut. */
  maxChars: z.number().int().positive().optional(),
  /** Keep images as `data:` URIs instead of `![alt](name)` placeholders. */
  keepDataUris: z.boolean().optional(),
  /** Word files: the text as if every tracked change were accepted, without review marks or comments. */
  acceptedText: z.boolean().optional(),
  /** Convert even when a result for these bytes is cached, and keep nothing (`bureau convert --no-cache`, benchmarks). */
  noCache: z.boolean().optional(),
  /** Read pictures with OCR only, never a vision model (a pre-send check must not upload anything). */
  localOnly: z.boolean().optional(),
  signal: z.instanceof(AbortSignal).optional(),
})
export type ConvertOptions = z.infer<typeof ConvertOptions>

export const ConvertResult = z.object({
  markdown: z.string(),
  format: ConvertFormat,
  title: z.string().optional(),
  warnings: z.array(z.string()),
  /** True when the Markdown was summarised or cut to fit `maxChars`. */
  truncated: z.boolean(),
})
export type ConvertResult = z.infer<typeof ConvertResult>

/** What an image-capable model returns for one picture: Markdown describing it. */
export type VisionHook = (
  image: { name: string; bytes: Uint8Array; mimeType: string },
  options: { signal: AbortSignal },
) => Promise<string>

/**
 * Who reads pictures in one conversion, decided per call (the setting and the active provider can
 * change while the app runs): a model (`id` names it, for the cache), nobody but OCR, or OCR because
 * the model that was asked for cannot be used (`reason` becomes a warning when a picture is met).
 */
export type VisionChoice =
  | { kind: 'model'; id: string; hook: VisionHook }
  | { kind: 'off' }
  | { kind: 'unavailable'; reason: string }

export type VisionSource = (signal?: AbortSignal) => Promise<VisionChoice>

/** Text recognition for one raster image (PNG, JPEG, TIFF, WebP, BMP or PNM bytes). */
export interface OcrEngine {
  recognize(image: Uint8Array, options: { signal: AbortSignal }): Promise<string>
  dispose(): Promise<void>
}

export interface FormatLimits {
  /** Largest input accepted, in bytes. */
  maxBytes: number
  /** Longest a conversion may run before it is abandoned. */
  timeoutMs: number
}

/** What one format module receives. */
export interface ConvertContext {
  name: string
  format: ConvertFormat
  bytes: Uint8Array
  keepDataUris: boolean
  /** Word files: accepted text only, no review marks (`ConvertOptions.acceptedText`). */
  acceptedText?: boolean
  /** Budget hint: converters that can summarise (spreadsheets) aim below it. */
  maxChars: number | undefined
  signal: AbortSignal
  warn(message: string): void
  ocr(): OcrEngine | undefined
  vision: VisionHook | undefined
  /** Converts a member of a container (zip, epub) with the same options; depth is limited. */
  convertMember(name: string, bytes: Uint8Array): Promise<ConvertResult>
}

export interface FormatOutput {
  markdown: string
  title?: string
  /** Set when the converter summarised its output to fit the budget. */
  truncated?: boolean
}

export type FormatConverter = (context: ConvertContext) => Promise<FormatOutput>
