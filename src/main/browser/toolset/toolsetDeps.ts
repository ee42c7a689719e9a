import type { PluginApi, UrlGuard, UrlGuardOptions } from '../../tools'

/** The framework functions the web toolset is built with (passed in: this service does not import the tools index at run time). */
export type WebToolsetApi = Pick<PluginApi, 'defineToolset' | 'method' | 'sessionState'> & {
  createUrlGuard: (options?: UrlGuardOptions) => UrlGuard
}
