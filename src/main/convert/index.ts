export { createAppConverter } from './appConverter'
export { type Converter, createConverter } from './createConverter'
export { ConvertError } from './errors'
export type { ConvertToolsetEnvironment } from './toolset/convertToolset'
export { ConvertResult } from './types'
export type { ProviderVisionOptions, VisionMode } from './vision/providerVision'

/** The `convert` toolset, loaded on demand. */
export async function loadConvertToolset(
  env: import('./toolset/convertToolset').ConvertToolsetEnvironment = {},
) {
  const { createConvertToolset } = await import('./toolset/convertToolset')
  return createConvertToolset(env)
}
