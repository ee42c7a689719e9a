import type { UrlGuard, UrlGuardOptions } from '../../tools'
import { resolveBrowserConfig } from '../config/resolveBrowserConfig'
import { createBrowserUrlGuard } from '../guard/browserUrlGuard'
import { createRequestVerdicts, type RequestVerdicts } from '../guard/requestVerdicts'
import type { BrowserConfig, BrowserEnvironment } from '../types'

/** The session's browser settings and the URL guard built from them, each resolved once on first use. */
export interface SessionPolicy {
  config(): Promise<BrowserConfig>
  guard(): Promise<UrlGuard>
  /** The guard's verdicts on single requests, cached, as the request guard and the shown-page check ask. */
  verdicts(): Promise<RequestVerdicts>
}

export interface SessionPolicyOptions {
  env: BrowserEnvironment
  /** The tool session's URL guard (host policy), used unless local network is allowed. */
  baseGuard: UrlGuard
  createUrlGuard: (options?: UrlGuardOptions) => UrlGuard
}

/** Runs `make` on the first call only; later calls get the same promise (a rejection included). */
export function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined
  return () => {
    made ??= make()
    return made
  }
}

export function createSessionPolicy(options: SessionPolicyOptions): SessionPolicy {
  const config = once(() => resolveBrowserConfig(options.env))
  const guard = once(() =>
    config().then((c) =>
      createBrowserUrlGuard({
        base: options.baseGuard,
        allowLocalNetwork: c.allowLocalNetwork,
        createUrlGuard: options.createUrlGuard,
      }),
    ),
  )
  const verdicts = once(() => guard().then(createRequestVerdicts))
  return { config, guard, verdicts }
}
