import { extractJsonObject, parseLooseJson } from '../../../shared/json'
import type { MethodInfo } from './methodInfo'

export type ParsedArguments = { ok: true; args: Record<string, unknown> } | { ok: false; error: string }

const WRAPPER_KEYS = ['arguments', 'args', 'parameters', 'params', 'input', 'kwargs']
const ECHO_KEYS = new Set(['name', 'function', 'tool', 'method', 'tool_name', 'type', 'id', ...WRAPPER_KEYS])

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function exampleObject(info: MethodInfo): string {
  const fields = info.params.filter((p) => p.required).map((p) => `"${p.name}": ...`)
  return `{${fields.join(', ')}}`
}

/** `{"name": "x", "arguments": {...}}` or `{"args": "{...}"}`: models echo the call or wrap the arguments. */
function unwrap(value: Record<string, unknown>, info: MethodInfo, depth: number): Record<string, unknown> {
  const keys = Object.keys(value)
  if (depth > 2 || keys.length === 0 || keys.some((key) => key in (info.input.properties ?? {}))) return value
  if (!keys.every((key) => ECHO_KEYS.has(key))) return value
  const wrapper = WRAPPER_KEYS.find((key) => key in value)
  if (!wrapper) return value
  const inner = value[wrapper]
  if (isPlainObject(inner)) return unwrap(inner, info, depth + 1)
  if (typeof inner === 'string') {
    const parsed = fromText(inner, info, depth + 1)
    if (parsed.ok) return parsed.args
  }
  return value
}

/** A bare value for a method that takes one field: `"hello"` for `{text}`. */
function singleField(info: MethodInfo): string | undefined {
  const required = info.params.filter((p) => p.required)
  if (required.length === 1) return required[0]?.name
  return info.params.length === 1 ? info.params[0]?.name : undefined
}

function fromText(text: string, info: MethodInfo, depth: number): ParsedArguments {
  const trimmed = text.trim()
  if (trimmed === '' || trimmed === 'null' || trimmed === '{}') return { ok: true, args: {} }
  if (trimmed.includes('{')) {
    const found = extractJsonObject(trimmed)
    if (found) return { ok: true, args: unwrap(found, info, depth) }
  }
  if (/^"(?:[^"\\]|\\.)*"$/.test(trimmed) && depth < 2) {
    // A JSON string holding the arguments (double-encoded) or a single value.
    const inner = parseLooseJson(trimmed)
    if (typeof inner === 'string') return fromText(inner, info, depth + 1)
  }
  const field = singleField(info)
  if (field && !trimmed.startsWith('{')) return { ok: true, args: { [field]: trimmed } }
  return {
    ok: false,
    error: `Could not read the arguments: send one JSON object with named fields, e.g. ${exampleObject(info)}`,
  }
}

/** Turns whatever the model sent (object, JSON text, prose with JSON, a bare value) into an arguments object. */
export function parseArguments(raw: unknown, info: MethodInfo): ParsedArguments {
  if (raw === undefined || raw === null) return { ok: true, args: {} }
  if (isPlainObject(raw)) return { ok: true, args: unwrap(raw, info, 0) }
  if (typeof raw === 'string') {
    try {
      return fromText(raw, info, 0)
    } catch {
      return {
        ok: false,
        error: `Could not read the arguments as JSON; send one object like ${exampleObject(info)}`,
      }
    }
  }
  const field = singleField(info)
  if (field && (typeof raw === 'number' || typeof raw === 'boolean'))
    return { ok: true, args: { [field]: raw } }
  return {
    ok: false,
    error: `Arguments must be one JSON object with named fields, e.g. ${exampleObject(info)}; received ${Array.isArray(raw) ? 'an array' : typeof raw}`,
  }
}
