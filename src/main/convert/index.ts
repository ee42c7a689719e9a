export { type AppConverterOptions, createAppConverter } from './appConverter'
export {
  type Converter,
  type ConverterOptions,
  type ConverterStats,
  createConverter,
} from './createConverter'
export { ConvertError, type ConvertFailure, isConvertError } from './errors'
export type { ConvertToolsetApi, ConvertToolsetEnvironment } from './toolset/toolsetApi'
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

/**
 * The `convert` toolset, loaded on demand. The tools framework passes in its functions, so this
 * service needs no run-time import of the tools index (no cycle).
 */
export async function loadConvertToolset(
  api: import('./toolset/toolsetApi').ConvertToolsetApi,
  env: import('./toolset/toolsetApi').ConvertToolsetEnvironment = {},
) {
  const { createConvertToolset } = await import('./toolset/convertToolset')
  return createConvertToolset(api, env)
}
