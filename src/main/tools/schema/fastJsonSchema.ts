import { z } from 'zod'
import type { JsonSchema } from './jsonSchemaType'

/**
 * A direct zod -> JSON Schema conversion for the shapes tool declarations use most (objects of strings,
 * numbers, booleans, enums, arrays, optionals, defaults, descriptions). `z.toJSONSchema` stays the
 * reference: anything this walker does not know returns `undefined` and the caller falls back to it, and
 * `test/main/tools/fastJsonSchema.test.ts` checks both give the same schema for every built-in method.
 * It exists because `z.toJSONSchema` costs ~0.1 ms per schema, which made a 300-method catalog miss its
 * 20 ms target. Its output is already in the catalog's tidy form (no `$schema`, no ±2^53 integer bounds).
 */

type Io = 'input' | 'output'

interface ZodInternals {
  _zod: {
    def: {
      type: string
      checks?: Array<{ _zod: { def: Record<string, unknown> } }>
      [key: string]: unknown
    }
  }
}

const unsupported = Symbol('unsupported')
type Result = JsonSchema | typeof unsupported

function defOf(schema: unknown): ZodInternals['_zod']['def'] {
  return (schema as ZodInternals)._zod.def
}

function checksOf(schema: unknown): Array<Record<string, unknown>> {
  return (defOf(schema).checks ?? []).map((check) => check._zod.def)
}

/** Metadata zod copies into the schema (description, examples, title…); an `id` makes zod emit $defs. */
function withMeta(schema: unknown, json: JsonSchema): Result {
  const meta = z.globalRegistry.get(schema as z.ZodType)
  if (!meta) return json
  if ('id' in meta) return unsupported
  return { ...json, ...meta }
}

function lengthBounds(checks: Array<Record<string, unknown>>, min: string, max: string): Result {
  const out: JsonSchema = {}
  for (const check of checks) {
    if (check.check === 'min_length' && typeof check.minimum === 'number') {
      out[min] = Math.max((out[min] as number | undefined) ?? 0, check.minimum)
    } else if (check.check === 'max_length' && typeof check.maximum === 'number') {
      out[max] = Math.min((out[max] as number | undefined) ?? Number.POSITIVE_INFINITY, check.maximum)
    } else if (check.check === 'length_equals' && typeof check.length === 'number') {
      out[min] = check.length
      out[max] = check.length
    } else {
      return unsupported
    }
  }
  return out
}

function numberSchema(checks: Array<Record<string, unknown>>): Result {
  const out: JsonSchema = { type: 'number' }
  const narrow = (key: string, value: number, pick: (a: number, b: number) => number) => {
    const current = out[key] as number | undefined
    out[key] = current === undefined ? value : pick(current, value)
  }
  for (const check of checks) {
    const value = check.value as number
    if (check.check === 'number_format' && check.format === 'safeint') {
      // zod also writes ±2^53 bounds here; the catalog drops them as noise (see tidy in jsonSchema.ts).
      out.type = 'integer'
    } else if (check.check === 'greater_than' && typeof value === 'number') {
      narrow(check.inclusive ? 'minimum' : 'exclusiveMinimum', value, Math.max)
    } else if (check.check === 'less_than' && typeof value === 'number') {
      narrow(check.inclusive ? 'maximum' : 'exclusiveMaximum', value, Math.min)
    } else {
      return unsupported
    }
  }
  return out
}

function objectSchema(def: ZodInternals['_zod']['def'], io: Io): Result {
  const shape = def.shape as Record<string, z.ZodType>
  const catchall = def.catchall as z.ZodType | undefined
  const properties: Record<string, JsonSchema> = {}
  const required: string[] = []
  for (const [key, child] of Object.entries(shape)) {
    const converted = convert(child, io)
    if (converted === unsupported) return unsupported
    properties[key] = converted
    const optional = io === 'input' ? child._zod.optin !== undefined : child._zod.optout !== undefined
    if (!optional) required.push(key)
  }
  const out: JsonSchema = { type: 'object', properties }
  if (required.length > 0) out.required = required
  if (catchall) {
    if (defOf(catchall).type !== 'never') return unsupported
    out.additionalProperties = false
  } else if (io === 'output') {
    out.additionalProperties = false
  }
  return out
}

const primitiveTypes = new Set(['string', 'number', 'integer', 'boolean', 'null'])

/** A schema that is nothing but a primitive `type` (unions of these collapse to a type list). */
function bareType(json: JsonSchema): string | undefined {
  const keys = Object.keys(json)
  return keys.length === 1 && typeof json.type === 'string' && primitiveTypes.has(json.type)
    ? json.type
    : undefined
}

function unionSchema(options: z.ZodType[], io: Io): Result {
  const converted: JsonSchema[] = []
  for (const option of options) {
    const json = convert(option, io)
    if (json === unsupported) return unsupported
    converted.push(json)
  }
  const types = converted.map(bareType)
  if (types.every((t) => t !== undefined) && new Set(types).size === types.length)
    return { type: types as string[] }
  return unsupported
}

function convertDef(schema: z.ZodType, io: Io): Result {
  const def = defOf(schema)
  // A format schema (z.email(), z.uuid()…) is its own check: zod adds format and pattern keywords.
  if (schema._zod.traits.has('$ZodCheck')) return unsupported
  switch (def.type) {
    case 'string': {
      const bounds = lengthBounds(checksOf(schema), 'minLength', 'maxLength')
      return bounds === unsupported ? unsupported : { type: 'string', ...bounds }
    }
    case 'number':
      return numberSchema(checksOf(schema))
    case 'boolean':
      return checksOf(schema).length === 0 ? { type: 'boolean' } : unsupported
    case 'null':
      return { type: 'null' }
    case 'unknown':
    case 'any':
      return {}
    case 'enum': {
      const values = Object.values(def.entries as Record<string, unknown>)
      return values.every((v) => typeof v === 'string') ? { type: 'string', enum: values } : unsupported
    }
    case 'literal': {
      const values = def.values as unknown[]
      const [value] = values
      return values.length === 1 && typeof value === 'string' ? { type: 'string', const: value } : unsupported
    }
    case 'array': {
      const items = convert(def.element as z.ZodType, io)
      const bounds = lengthBounds(checksOf(schema), 'minItems', 'maxItems')
      return items === unsupported || bounds === unsupported
        ? unsupported
        : { type: 'array', ...bounds, items }
    }
    case 'optional':
      return convert(def.innerType as z.ZodType, io)
    case 'default': {
      const inner = convert(def.innerType as z.ZodType, io)
      if (inner === unsupported) return unsupported
      const value = def.defaultValue
      // Only an object or array default needs a copy the schema's reader cannot change.
      return {
        default: typeof value === 'object' && value !== null ? structuredClone(value) : value,
        ...inner,
      }
    }
    case 'nullable': {
      const inner = convert(def.innerType as z.ZodType, io)
      if (inner === unsupported) return unsupported
      const type = bareType(inner)
      return type && type !== 'null' ? { type: [type, 'null'] } : unsupported
    }
    case 'union':
      return def.inclusive === false ? unsupported : unionSchema(def.options as z.ZodType[], io)
    case 'object':
      return objectSchema(def, io)
    case 'record': {
      const keys = convert(def.keyType as z.ZodType, io)
      const values = convert(def.valueType as z.ZodType, io)
      if (keys === unsupported || values === unsupported || bareType(keys) !== 'string') return unsupported
      return { type: 'object', propertyNames: keys, additionalProperties: values }
    }
    default:
      return unsupported
  }
}

function convert(schema: z.ZodType, io: Io): Result {
  const json = convertDef(schema, io)
  return json === unsupported ? unsupported : withMeta(schema, json)
}

/** The JSON Schema of a common tool schema, or `undefined` when only `z.toJSONSchema` can say. */
export function fastJsonSchema(schema: z.ZodType, io: Io): JsonSchema | undefined {
  const json = convert(schema, io)
  return json === unsupported ? undefined : json
}
