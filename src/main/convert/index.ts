export { type AppConverterOptions, createAppConverter } from './appConverter'
export {
  type Converter,
  type ConverterOptions,
  type ConverterStats,
  createConverter,
} from './createConverter'
export { ConvertError, type ConvertFailure, isConvertError } from './errors'
export type { ConvertToolsetEnvironment } from './toolset/convertToolset'
export {
  ConvertFormat,
  ConvertInput,
  ConvertOptions,
  ConvertResult,
  type OcrEngine,
  type VisionChoice,
  type VisionHook,
  type VisionSource,
} from './types'
export {
  type ProviderVisionOptions,
  TRANSCRIBE_INSTRUCTIONS,
  type VisionMode,
} from './vision/providerVision'

/** The `convert` toolset, loaded on demand. */
export async function loadConvertToolset(
  env: import('./toolset/convertToolset').ConvertToolsetEnvironment = {},
) {
  const { createConvertToolset } = await import('./toolset/convertToolset')
  return createConvertToolset(env)
}
