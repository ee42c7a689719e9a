export { type Converter, type ConverterOptions, createConverter } from './createConverter'
export { ConvertError, type ConvertFailure, isConvertError } from './errors'
export {
  ConvertFormat,
  ConvertInput,
  ConvertOptions,
  ConvertResult,
  type OcrEngine,
  type VisionHook,
} from './types'
