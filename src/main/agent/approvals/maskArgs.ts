/** Longest string sent to the card; the card cuts further and shows the rest as a tooltip. */
const MAX_STRING = 2_000
const MASK = '•••••• (hidden)'

/** Argument names whose values are secrets whatever they look like. */
const SECRET_KEY = /pass(word|phrase)?|secret|token|api[-_]?key|auth|credential|cookie|private[-_]?key/i
/** Values that look like secrets: provider keys, GitHub/Slack tokens, bearer headers, JWTs. */
const SECRET_VALUE = [
  /\bsk-[A-Za-z0-9_-]{16,}/,
  /\bgh[pousr]_[A-Za-z0-9]{20,}/,
  /\bxox[abpr]-[A-Za-z0-9-]{10,}/,
  /\bBearer\s+[A-Za-z0-9._~+/=-]{12,}/i,
  /\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\./,
]

function maskString(value: string): string {
  let out = value
  for (const pattern of SECRET_VALUE) out = out.replace(new RegExp(pattern, 'g'), MASK)
  return out.length > MAX_STRING ? `${out.slice(0, MAX_STRING - 1)}…` : out
}

function mask(value: unknown, key: string | undefined, depth: number): unknown {
  if (key !== undefined && SECRET_KEY.test(key) && value !== null && typeof value !== 'boolean') return MASK
  if (typeof value === 'string') return maskString(value)
  if (depth > 6 || value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.slice(0, 200).map((item) => mask(item, undefined, depth + 1))
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mask(v, k, depth + 1)]))
}

/**
 * The arguments as an approval card shows them: values under secret-looking names and values that look
 * like keys or tokens are masked, long strings are cut. The call itself runs with the real arguments.
 */
export function maskArgs(args: Record<string, unknown>): Record<string, unknown> {
  return mask(args, undefined, 0) as Record<string, unknown>
}
