import { lookup as dnsLookup } from 'node:dns/promises'
import ipaddr from 'ipaddr.js'
import { AppError } from '../../../shared/errors'
import { addressInRange, classifyAddress, describeRange } from './addressRanges'
import { pinnedFetch } from './pinnedFetch'

export interface UrlGuardOptions {
  /** Allow every non-public address (loopback, private, link-local...). Off by default. */
  allowPrivate?: boolean
  /** Exceptions the user allowed: host names (`intranet.example`, `*.corp.example`), IPs or CIDR ranges. */
  allowHosts?: readonly string[]
  /** Schemes allowed besides http: and https:, e.g. `file:`. */
  allowSchemes?: readonly string[]
  /** DNS resolution; replaceable in tests. Returns every address of the host. */
  lookup?: (hostname: string) => Promise<string[]>
  maxRedirects?: number
}

/** The only way HTTP toolsets reach the network: every URL (and every redirect hop) is checked first. */
export interface UrlGuard {
  /** Resolves and checks a URL; throws an AppError (FORBIDDEN) naming the rule when it is refused. */
  check(url: string | URL): Promise<URL>
  /**
   * `fetch` that checks the URL and each redirect target, and connects only to the addresses it checked
   * (the DNS answer is checked inside the connection's own lookup, so it cannot change in between).
   */
  fetch(url: string | URL, init?: RequestInit): Promise<Response>
  /**
   * Checks a URL like `check` and returns the addresses a connection to its host may use, each checked
   * in this call (for connections made outside `fetch`, e.g. the browser's guard proxy).
   */
  resolve(url: string | URL): Promise<string[]>
}

const WEB_SCHEMES = new Set(['http:', 'https:'])
const ALLOW_HINT = 'Local and private network targets are blocked unless the user allows them in settings.'

async function systemLookup(hostname: string): Promise<string[]> {
  const results = await dnsLookup(hostname, { all: true, verbatim: true })
  return results.map((result) => result.address)
}

function refuse(url: string, reason: string): AppError {
  return new AppError('FORBIDDEN', `Refused ${url}: ${reason}. ${ALLOW_HINT}`)
}

function hostAllowed(hostname: string, allowHosts: readonly string[]): boolean {
  return allowHosts.some((entry) => {
    const rule = entry.trim().toLowerCase()
    if (rule.startsWith('*.')) return hostname.endsWith(rule.slice(1))
    return rule === hostname
  })
}

function addressAllowed(address: string, allowHosts: readonly string[]): boolean {
  return allowHosts.some((entry) => {
    const rule = entry.trim().replace(/^\[|\]$/g, '')
    return (rule.includes('/') || ipaddr.isValid(rule)) && addressInRange(address, rule)
  })
}

export function createUrlGuard(options: UrlGuardOptions = {}): UrlGuard {
  const allowHosts = options.allowHosts ?? []
  const schemes = new Set([
    ...WEB_SCHEMES,
    ...(options.allowSchemes ?? []).map((s) => (s.endsWith(':') ? s : `${s}:`)),
  ])
  const lookup = options.lookup ?? systemLookup
  const maxRedirects = options.maxRedirects ?? 5

  const checkAddress = (shown: string, address: string, via?: string) => {
    if (options.allowPrivate || addressAllowed(address, allowHosts)) return
    const verdict = classifyAddress(address)
    if (verdict.public) return
    const subject = via ? `${via} resolves to ${address}, which is` : `${address} is`
    throw refuse(shown, `${subject} ${describeRange(verdict.range)}`)
  }

  const check = async (input: string | URL): Promise<URL> => {
    let url: URL
    try {
      url = new URL(String(input))
    } catch {
      throw new AppError(
        'VALIDATION_FAILED',
        `Not a valid URL: ${JSON.stringify(String(input).slice(0, 200))}`,
      )
    }
    const shown = url.href.length > 200 ? `${url.href.slice(0, 197)}...` : url.href
    if (!schemes.has(url.protocol))
      throw refuse(shown, `only http and https URLs are allowed, not ${url.protocol}`)
    if (!WEB_SCHEMES.has(url.protocol)) return url
    const hostname = url.hostname.toLowerCase().replace(/\.$/, '')
    if (hostname === '') throw refuse(shown, 'the URL has no host')
    if (hostAllowed(hostname, allowHosts)) return url
    const literal = hostname.replace(/^\[|\]$/g, '')
    if (ipaddr.isValid(literal)) {
      checkAddress(shown, literal)
      return url
    }
    if (!options.allowPrivate && (hostname === 'localhost' || hostname.endsWith('.localhost'))) {
      throw refuse(shown, `${hostname} is ${describeRange('loopback')}`)
    }
    await resolveChecked(hostname, shown)
    return url
  }

  /** Every address of `hostname`, each checked: the addresses a connection may use. */
  const resolveChecked = async (hostname: string, shown: string): Promise<string[]> => {
    const bare = hostname.toLowerCase().replace(/\.$/, '')
    let addresses: string[]
    try {
      addresses = await lookup(bare)
    } catch {
      throw new AppError('UNAVAILABLE', `Could not resolve the host ${bare}; check the URL.`)
    }
    if (addresses.length === 0)
      throw new AppError('UNAVAILABLE', `The host ${bare} has no address; check the URL.`)
    if (!hostAllowed(bare, allowHosts)) for (const address of addresses) checkAddress(shown, address, bare)
    return addresses
  }

  const guardedFetch = async (input: string | URL, init: RequestInit = {}): Promise<Response> => {
    let url = await check(input)
    let request: RequestInit = { ...init, redirect: 'manual' }
    for (let hop = 0; ; hop++) {
      const current = url
      const response = await pinnedFetch(current, request, (hostname) =>
        resolveChecked(hostname, current.href),
      )
      const location = response.headers.get('location')
      if (response.status < 300 || response.status >= 400 || !location || init.redirect === 'manual')
        return response
      if (hop >= maxRedirects)
        throw new AppError('UNAVAILABLE', `Too many redirects (more than ${maxRedirects}) from ${url.href}`)
      url = await check(new URL(location, url))
      if (
        response.status === 303 ||
        ((response.status === 301 || response.status === 302) && request.method === 'POST')
      ) {
        request = { ...request, method: 'GET', body: undefined }
      }
    }
  }

  const resolve = async (input: string | URL): Promise<string[]> => {
    const url = await check(input)
    const hostname = url.hostname.toLowerCase().replace(/\.$/, '')
    const literal = hostname.replace(/^\[|\]$/g, '')
    if (ipaddr.isValid(literal)) return [literal]
    return resolveChecked(hostname, url.href.slice(0, 200))
  }

  return { check, fetch: guardedFetch, resolve }
}
