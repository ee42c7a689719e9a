export type JsonObject = Record<string, unknown>

const forbiddenKeys = new Set(['__proto__', 'constructor', 'prototype'])

export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** RFC 7396 JSON Merge Patch: returns a new value, never mutates `target`. */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch
  const result: JsonObject = isPlainObject(target) ? { ...target } : {}
  for (const [key, value] of Object.entries(patch)) {
    if (forbiddenKeys.has(key)) continue
    if (value === null) delete result[key]
    else if (value !== undefined) result[key] = applyMergePatch(result[key], value)
  }
  return result
}

/** `a.b.c` + value -> `{a: {b: {c: value}}}`: the patch a dotted CLI key stands for. */
export function patchForPath(path: string, value: unknown): JsonObject {
  const keys = path.split('.')
  let patch: unknown = value
  for (const key of keys.reverse()) patch = { [key]: patch }
  return patch as JsonObject
}

/** Reads a dotted path (`attachments.budgetChars`) from a plain object. */
export function valueAtPath(source: unknown, path: string): { found: boolean; value?: unknown } {
  let current: unknown = source
  for (const key of path.split('.')) {
    if (!isPlainObject(current) || !Object.hasOwn(current, key)) return { found: false }
    current = current[key]
  }
  return { found: true, value: current }
}
