import { type Converter, createConverter } from './createConverter'
import type { OcrEngine } from './types'
import { type ProviderVisionOptions, providerVision } from './vision/providerVision'

export interface AppConverterOptions {
  /** Folder of the on-disk result cache (the app uses `<data-dir>/cache/convert`). */
  cacheDir?: string
  /** Who reads pictures: the setting and the active provider, asked per conversion. Absent: OCR only. */
  vision?: ProviderVisionOptions
  /** Tests replace the offline OCR. */
  ocr?: OcrEngine | false
}

/**
 * The one converter of an app or CLI run, shared by attachments and the `convert` toolset: created on
 * first use (format libraries load per format), cached by content, disposed with its owner.
 */
export function createAppConverter(options: AppConverterOptions = {}): Converter {
  let converter: Converter | undefined
  const get = () =>
    (converter ??= createConverter({
      ...(options.cacheDir !== undefined && { cacheDir: options.cacheDir }),
      ...(options.ocr !== undefined && { ocr: options.ocr }),
      ...(options.vision && { chooseVision: providerVision(options.vision) }),
    }))
  return {
    convert: (input, convertOptions) => get().convert(input, convertOptions),
    stats: () => converter?.stats() ?? { conversions: 0, cacheHits: 0 },
    prepare: (fileNames) => get().prepare?.(fileNames),
    async dispose() {
      await converter?.dispose()
    },
  }
}
