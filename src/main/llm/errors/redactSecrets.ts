const KEY_PATTERNS = [
  /\b(sk|pk|rk)-[A-Za-z0-9_-]{8,}/g,
  /\bsk-ant-[A-Za-z0-9_-]{8,}/g,
  /\bAIza[0-9A-Za-z_-]{20,}/g,
  /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /\b(api[_-]?key|x-api-key|key)=([^&\s"']{6,})/gi,
]

/** Removes the given secrets and anything that looks like an API key from text meant for logs or users. */
export function redactSecrets(text: string, secrets: ReadonlyArray<string | undefined> = []): string {
  let out = text
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]')
  }
  for (const pattern of KEY_PATTERNS) out = out.replace(pattern, '[redacted]')
  return out
}

/** A provider's own error text, made safe and short enough for one line of a user message. */
export function providerMessageForUser(
  text: string | undefined,
  secrets: ReadonlyArray<string | undefined>,
  max = 200,
): string | undefined {
  if (!text) return undefined
  const clean = redactSecrets(text, secrets).replace(/\s+/g, ' ').trim()
  if (clean === '') return undefined
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean
}

/** A base URL without credentials, query or fragment: safe to show. */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url)
    return `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/+$/, '')}`
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//').replace(/[?#].*$/, '')
  }
}
