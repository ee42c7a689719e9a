/** Shapes of well-known credentials: a memory holding one is refused. */
const KNOWN_SHAPES: ReadonlyArray<{ pattern: RegExp; what: string }> = [
  { pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----/, what: 'a private key' },
  { pattern: /\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{16,}/, what: 'an API key ("sk-…")' },
  { pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/, what: 'a GitHub token' },
  { pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/, what: 'an AWS access key' },
  { pattern: /\bAIza[0-9A-Za-z_-]{30,}/, what: 'a Google API key' },
  { pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/, what: 'a Slack token' },
  { pattern: /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/, what: 'a JSON web token' },
  { pattern: /\bbearer\s+[A-Za-z0-9._~+/-]{16,}/i, what: 'a bearer token' },
  { pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@]+:[^\s/@]+@/i, what: 'a password inside an address' },
]

/** "password is …", "API-Key: …", "PIN = …" in the languages Bureau's users write. */
const LABELLED =
  /\b(?:password|passwort|kennwort|passwd|pwd|passcode|pin|mot de passe|contrase(?:ñ|n)a|api[ _-]?key|api[ _-]?schlüssel|secret key|client secret|access token|auth token|token|secret)\b\s*(?:is|ist|lautet|est|es|=|:)\s*["'`]?\S{3,}/i

/** A long run of mixed letters and digits, the way generated keys look (paths and mail addresses excluded). */
const RANDOM_RUN = /[A-Za-z0-9_+=-]{24,}/g

function looksGenerated(run: string): boolean {
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/].filter((re) => re.test(run)).length
  if (classes < 3) return false
  const counts = new Map<string, number>()
  for (const ch of run) counts.set(ch, (counts.get(ch) ?? 0) + 1)
  let entropy = 0
  for (const n of counts.values()) entropy -= (n / run.length) * Math.log2(n / run.length)
  return entropy >= 3.5
}

/**
 * Why a text may not become a memory (it looks like a key, password or token), or undefined.
 * Memories are sent to the model with matching requests, so a secret in one would leave the machine.
 */
export function secretReason(text: string): string | undefined {
  for (const { pattern, what } of KNOWN_SHAPES) {
    if (pattern.test(text)) return what
  }
  if (LABELLED.test(text)) return 'a password or key written after its label'
  for (const match of text.matchAll(RANDOM_RUN)) {
    if (looksGenerated(match[0])) return 'a long random-looking string, like a key or token'
  }
  return undefined
}

/** The message of the refusal: what was found and where secrets belong instead. */
export function secretRefusal(reason: string): string {
  return (
    `Not stored: this looks like ${reason}. Memories are sent to the model with every matching request, ` +
    'so they must not hold passwords, keys or tokens. Keep secrets in Settings (stored encrypted) and ' +
    'remember only where they are, e.g. "the SMTP password is in Settings → E-mail".'
  )
}
