import { z } from 'zod'
import { isPlainObject, type JsonObject } from './mergePatch'

const ID = '([a-z0-9][a-z0-9_-]{0,63})'

export interface SecretNameRule {
  pattern: RegExp
  example: string
  /** What the user calls it, for "re-enter ..." notices; built from the pattern's groups. */
  label(match: RegExpMatchArray): string
}

/**
 * Every name a secret may have: dotted paths. A service that needs a new secret adds a rule here.
 * Anything else is refused, so a typo cannot create a secret nobody reads.
 */
export const secretNameRules: readonly SecretNameRule[] = [
  {
    pattern: new RegExp(`^providers\\.${ID}\\.apiKey$`),
    example: 'providers.deepseek.apiKey',
    label: (m) => `the API key of provider "${m[1]}"`,
  },
  {
    pattern: /^email\.(smtp|imap)Password$/,
    example: 'email.smtpPassword',
    label: (m) => `the ${(m[1] ?? '').toUpperCase()} password`,
  },
  {
    pattern: new RegExp(`^email\\.accounts\\.${ID}\\.password$`),
    example: 'email.accounts.work.password',
    label: (m) => `the password of e-mail account "${m[1]}"`,
  },
  {
    pattern: new RegExp(`^calendar\\.accounts\\.${ID}\\.password$`),
    example: 'calendar.accounts.work.password',
    label: (m) => `the password of calendar account "${m[1]}"`,
  },
  {
    pattern: new RegExp(`^bridge\\.tokens\\.${ID}$`),
    example: 'bridge.tokens.my-script',
    label: (m) => `the bridge token "${m[1]}"`,
  },
  {
    pattern: new RegExp(`^mcp\\.${ID}\\.(env|header)\\.([A-Za-z_][A-Za-z0-9_-]{0,127})$`),
    example: 'mcp.github.env.GITHUB_TOKEN',
    label: (m) =>
      `${m[2] === 'env' ? 'the environment variable' : 'the header'} ${m[3]} of MCP server "${m[1]}"`,
  },
  {
    pattern: /^voice\.(tts|stt)\.apiKey$/,
    example: 'voice.tts.apiKey',
    label: (m) => `the API key of the ${m[1] === 'tts' ? 'speech' : 'transcription'} service`,
  },
]

function matchRule(name: string): { rule: SecretNameRule; match: RegExpMatchArray } | undefined {
  for (const rule of secretNameRules) {
    const match = name.match(rule.pattern)
    if (match) return { rule, match }
  }
  return undefined
}

export function isSecretName(name: string): boolean {
  return matchRule(name) !== undefined
}

/** "the API key of provider "deepseek"" for `providers.deepseek.apiKey`. */
export function secretLabel(name: string): string {
  const found = matchRule(name)
  return found ? found.rule.label(found.match) : `the secret "${name}"`
}

export const SecretName = z
  .string()
  .max(200)
  .refine(isSecretName, {
    message: `Unknown secret name. Use one of: ${secretNameRules.map((r) => r.example).join(', ')}.`,
  })

/** Key names that must never be stored as plain settings, whatever section they are in. */
export function looksLikeSecretKey(key: string): boolean {
  return /^(api[-_]?key|tokens?|secret|client[-_]?secret)$|password|passphrase|secret[-_]?key/i.test(key)
}

/**
 * Takes every value whose dotted path is a secret name out of a settings object (e.g. a key left in
 * plaintext by an old version or a hand edit), so the store can encrypt it and forget the plaintext.
 */
export function extractSecrets(data: JsonObject): { data: JsonObject; secrets: Map<string, string> } {
  const secrets = new Map<string, string>()
  const walk = (node: JsonObject, path: string[]): JsonObject => {
    const out: JsonObject = {}
    for (const [key, value] of Object.entries(node)) {
      const name = [...path, key].join('.')
      if (isSecretName(name)) {
        if (typeof value === 'string' && value !== '') secrets.set(name, value)
        continue
      }
      out[key] = isPlainObject(value) ? walk(value, [...path, key]) : value
    }
    return out
  }
  return { data: walk(data, []), secrets }
}

/** Removes secret-like keys at any depth: what goes to the renderer never carries one by accident. */
export function withoutSecretLikeKeys(data: JsonObject): JsonObject {
  const out: JsonObject = {}
  for (const [key, value] of Object.entries(data)) {
    if (looksLikeSecretKey(key)) continue
    out[key] = isPlainObject(value) ? withoutSecretLikeKeys(value) : value
  }
  return out
}
