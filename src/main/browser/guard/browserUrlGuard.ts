import { AppError } from '../../../shared/errors'
import type { UrlGuard, UrlGuardOptions } from '../../tools'

// Schemes that open the browser's own pages, local files or run code: never for the agent.
const INTERNAL =
  /^(chrome|edge|about|brave|opera|vivaldi|chrome-extension|extension|devtools|view-source|chrome-untrusted|edge-extension):/i
const CODE_OR_LOCAL = /^(javascript|data|file|blob|filesystem|ws|wss):/i

export interface BrowserUrlGuardOptions {
  /** The session's guard (host policy); used unless local network is allowed. */
  base: UrlGuard
  allowLocalNetwork: boolean
  /** The tools framework's guard factory (passed in: this service does not import the tools index at run time). */
  createUrlGuard: (options?: UrlGuardOptions) => UrlGuard
}

/**
 * The browser's URL check: the tools URL guard (http/https only, no loopback or private
 * addresses unless allowed) with clearer refusals for browser-internal and code-running schemes.
 */
export function createBrowserUrlGuard(options: BrowserUrlGuardOptions): UrlGuard {
  const base = options.allowLocalNetwork ? options.createUrlGuard({ allowPrivate: true }) : options.base
  const precheck = (input: string | URL) => {
    const text = String(input).trim()
    if (INTERNAL.test(text))
      throw new AppError(
        'FORBIDDEN',
        `Refused ${text.slice(0, 80)}: browser-internal pages are off limits to the agent.`,
      )
    if (CODE_OR_LOCAL.test(text))
      throw new AppError(
        'FORBIDDEN',
        `Refused ${text.slice(0, 80)}: ${text.split(':')[0]?.toLowerCase()}: URLs are not allowed; only http and https pages can be opened.`,
      )
  }
  return {
    async check(input) {
      precheck(input)
      return base.check(input)
    },
    async fetch(input, init) {
      precheck(input)
      return base.fetch(input, init)
    },
    async resolve(input) {
      precheck(input)
      return base.resolve(input)
    },
  }
}
