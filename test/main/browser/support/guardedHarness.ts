import { createUrlGuard, type UrlGuard } from '../../../../src/main/tools'
import { type Harness, type Mode, startHarness } from './harness'

/**
 * A host policy for tests with two loopback servers: the "public" one (by host and port, http and https
 * only) is allowed, everything else as usual (so the other loopback server is refused). `seen` collects
 * every address checked.
 */
export function allowOnlyOrigin(publicOrigin: string, seen?: string[]): UrlGuard {
  const base = createUrlGuard()
  const allowedHost = new URL(publicOrigin).host
  return {
    async check(input) {
      seen?.push(String(input))
      const url = new URL(String(input))
      return url.host === allowedHost && /^https?:$/.test(url.protocol) ? url : base.check(input)
    },
    fetch: (input, init) => base.fetch(input, init),
    async resolve(input) {
      seen?.push(String(input))
      const url = new URL(String(input))
      return url.host === allowedHost ? [url.hostname] : base.resolve(input)
    },
  }
}

/**
 * A harness without local network access whose policy allows only `publicOrigin` (searches go there too);
 * cdp mode attaches to `cdpEndpoint`, the browser the test file shares.
 */
export function startGuardedHarness(
  mode: Mode,
  publicOrigin: string,
  cdpEndpoint: string,
  seen?: string[],
): Promise<Harness> {
  return startHarness(
    mode,
    `${publicOrigin}/search?q={query}`,
    { allowLocalNetwork: false, ...(mode === 'cdp' ? { cdpEndpoint } : {}) },
    { urlGuard: allowOnlyOrigin(publicOrigin, seen) },
  )
}
