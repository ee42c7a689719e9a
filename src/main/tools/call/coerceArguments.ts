import { parseLooseJson } from '../../../shared/json'
import { nameKey } from '../naming'
import { type JsonSchema, resolveRef, schemaBranches, schemaTypes } from '../schema/jsonSchema'
import { unchangedByCoercion } from './unchangedByCoercion'

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i
const TRUE_WORDS = new Set(['true', 'yes', 'y', '1', 'on'])
const FALSE_WORDS = new Set(['false', 'no', 'n', '0', 'off'])

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function toNumber(value: unknown): unknown {
  if (typeof value === 'string' && NUMBER.test(value.trim())) return Number(value.trim())
  return value
}

function toBoolean(value: unknown): unknown {
  if (typeof value === 'string') {
    const word = value.trim().toLowerCase()
    if (TRUE_WORDS.has(word)) return true
    if (FALSE_WORDS.has(word)) return false
  }
  if (value === 1) return true
  if (value === 0) return false
  return value
}

function matchesType(value: unknown, schema: JsonSchema, root: JsonSchema): boolean {
  const resolved = resolveRef(schema, root)
  if (resolved.enum) return resolved.enum.includes(value)
  if (resolved.const !== undefined) return resolved.const === value
  const types = schemaTypes(resolved)
  if (types.length === 0) return true
  return types.some((type) => {
    switch (type) {
      case 'string':
        return typeof value === 'string'
      case 'number':
        return typeof value === 'number'
      case 'integer':
        return Number.isInteger(value)
      case 'boolean':
        return typeof value === 'boolean'
      case 'null':
        return value === null
      case 'array':
        return Array.isArray(value)
      case 'object':
        return isPlainObject(value)
      default:
        return false
    }
  })
}

function coerceEnum(value: unknown, options: unknown[]): unknown {
  if (options.includes(value)) return value
  const wanted = nameKey(String(value).trim())
  return options.find((option) => nameKey(String(option)) === wanted) ?? value
}

function acceptsNull(schema: JsonSchema, root: JsonSchema): boolean {
  return schemaBranches(resolveRef(schema, root)).some((branch) => matchesType(null, branch, root))
}

function coerceArray(value: unknown, schema: JsonSchema, root: JsonSchema): unknown {
  let items: unknown = value
  if (typeof value === 'string') {
    const text = value.trim()
    if (text === '') items = []
    else if (text.startsWith('[')) {
      try {
        items = parseLooseJson(text)
      } catch {
        return value
      }
    } else if (text.startsWith('{')) items = [value]
    else items = text.split(',').map((part) => part.trim())
  }
  if (!Array.isArray(items)) items = [items]
  return (items as unknown[]).map((item, index) => {
    const itemSchema = schema.prefixItems?.[index] ?? schema.items
    return itemSchema ? coerceValue(item, itemSchema, root) : item
  })
}

function coerceObject(
  value: Record<string, unknown>,
  schema: JsonSchema,
  root: JsonSchema,
): Record<string, unknown> {
  const properties = schema.properties ?? {}
  const required = schema.required ?? []
  const extra = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined
  let byKey: Map<string, string> | undefined
  const out: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) {
    let target = key
    if (!(key in properties)) {
      byKey ??= new Map(Object.keys(properties).map((name) => [nameKey(name), name]))
      const alias = byKey.get(nameKey(key))
      if (alias && !(alias in value)) target = alias
    }
    const propertySchema = properties[target]
    if (!propertySchema) {
      out[key] = extra ? coerceValue(item, extra, root) : item
      continue
    }
    if (item === undefined) continue
    const optional = !required.includes(target)
    // Models fill optional fields with null or "" instead of leaving them out.
    if (optional && (item === null || item === '') && !matchesType(item, propertySchema, root)) continue
    if (optional && item === null && !acceptsNull(propertySchema, root)) continue
    out[target] = coerceValue(item, propertySchema, root)
  }
  return out
}

/** Converts what a model sent into what the schema expects, where the intent is unambiguous. */
export function coerceValue(value: unknown, schema: JsonSchema, root: JsonSchema): unknown {
  // Well-formed input (the common case, and the costly one for large arrays) needs no walk and no copy.
  if (unchangedByCoercion(schema)?.(value)) return value
  const resolved = resolveRef(schema, root)
  if (resolved.enum) return coerceEnum(value, resolved.enum)
  const branches = schemaBranches(resolved)
  if (branches.length > 1) {
    const exact = branches.find((branch) => matchesType(value, branch, root))
    if (exact) return coerceValue(value, exact, root)
    for (const branch of branches) {
      const coerced = coerceValue(value, branch, root)
      if (matchesType(coerced, branch, root)) return coerced
    }
    return value
  }
  switch (schemaTypes(resolved)[0]) {
    case 'number':
    case 'integer':
      return toNumber(value)
    case 'boolean':
      return toBoolean(value)
    case 'string':
      return typeof value === 'number' || typeof value === 'boolean' ? String(value) : value
    case 'array':
      return coerceArray(value, resolved, root)
    case 'object': {
      let object = value
      if (typeof value === 'string' && value.trim().startsWith('{')) {
        try {
          object = parseLooseJson(value)
        } catch {
          return value
        }
      }
      return isPlainObject(object) ? coerceObject(object, resolved, root) : object
    }
    default:
      return value
  }
}

/** Coerces a whole arguments object against the method's input JSON Schema. */
export function coerceArguments(args: Record<string, unknown>, input: JsonSchema): Record<string, unknown> {
  return coerceObject(args, input, input)
}
