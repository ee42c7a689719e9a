import type { JsonObject } from '../../shared/settings'

/** Query parameters that carry a credential (`?key=…`, `api_key=…`, `access_token=…`). */
const CREDENTIAL_PARAM =
  /^(?:key|api[-_]?key|access[-_]?token|token|secret|password|passwd|auth|signature|sig)$/i
const URL_START = /^[a-z][a-z0-9+.-]*:\/\//i
const USER_INFO = /^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i

export interface UrlCredential {
  /** The settings key, e.g. `providers.openai.baseUrl`. */
  path: string
  what: string
}

function credentialParams(url: URL): string[] {
  return [...url.searchParams.entries()]
    .filter(([k, v]) => CREDENTIAL_PARAM.test(k) && v !== '')
    .map(([k]) => k)
}

function inUrl(text: string): string[] {
  if (!URL_START.test(text)) return []
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return []
  }
  const found = url.username || url.password ? ['a user name and password'] : []
  return [...found, ...credentialParams(url).map((k) => `the query parameter "${k}"`)]
}

/** Every URL in the settings that carries a credential, by its dotted key. */
export function findUrlCredentials(value: unknown, path = ''): UrlCredential[] {
  if (typeof value === 'string') {
    const found = inUrl(value)
    return found.length > 0 ? [{ path, what: found.join(' and ') }] : []
  }
  if (typeof value !== 'object' || value === null) return []
  return Object.entries(value).flatMap(([k, v]) => findUrlCredentials(v, path ? `${path}.${k}` : k))
}

function stripUrl(text: string): string {
  if (inUrl(text).length === 0) return text
  const withoutUser = text.replace(USER_INFO, '$1')
  const [head, hash = ''] = withoutUser.split(/(?=#)/, 2)
  const [base, query] = (head ?? '').split(/\?(.*)/s, 2) as [string, string | undefined]
  if (query === undefined) return withoutUser
  const kept = query
    .split('&')
    .filter((pair) => !CREDENTIAL_PARAM.test(decodeURIComponent(pair.split('=')[0] ?? '')))
  return `${base}${kept.length > 0 ? `?${kept.join('&')}` : ''}${hash}`
}

/** A copy of the settings with the credentials cut out of their URLs (text kept as written otherwise). */
export function stripUrlCredentials<T extends JsonObject>(value: T): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return stripUrl(v)
    if (Array.isArray(v)) return v.map(walk)
    if (typeof v === 'object' && v !== null)
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]))
    return v
  }
  return walk(value) as T
}

/** The secret a URL's key belongs in, when the setting has one. */
export function secretFor(path: string): string | undefined {
  const match = /^(providers\.[^.]+|voice\.tts|voice\.stt)\.baseUrl$/.exec(path)
  return match ? `${match[1]}.apiKey` : undefined
}

export function credentialAdvice(found: UrlCredential): string {
  const secret = secretFor(found.path)
  const where = secret
    ? `store the key as the secret ${secret} (Settings, or \`bureau settings set-secret ${secret}\`)`
    : 'store the key as a secret instead'
  return `${found.path} has a credential in its URL (${found.what}), and settings.json is not encrypted: remove it from the URL and ${where}.`
}
