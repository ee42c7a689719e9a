import type { PluginApi } from '../../tools'
import type { Converter } from '../createConverter'

/** The framework functions the toolset is built with (passed in: no run-time import of the tools index). */
export type ConvertToolsetApi = Pick<PluginApi, 'defineToolset' | 'method' | 'sessionState'>

export interface ConvertToolsetEnvironment {
  /**
   * The app's converter, shared with attachments (one per app: its cache and OCR worker are reused).
   * Without it each tool session gets its own, disposed when the session ends.
   */
  converter?: () => Pick<Converter, 'convert'>
}
