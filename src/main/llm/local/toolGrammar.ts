import type { GbnfJsonSchema } from 'node-llama-cpp'
import { DONE_METHOD } from '../toolProtocol/jsonProtocol'
import type { ToolSpec } from '../types'

type Schema = Record<string, unknown>

const SCALARS = new Set(['string', 'number', 'integer', 'boolean', 'null'])

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Any JSON value: what a schema the grammar cannot express falls back to (the tools pipeline validates). */
const ANY_VALUE: GbnfJsonSchema = {
  type: ['string', 'number', 'integer', 'boolean', 'null'],
}

function literal(value: unknown): value is string | number | boolean | null {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value)
}

interface ObjectParts {
  properties: Record<string, GbnfJsonSchema>
  required: string[]
}

function objectParts(schema: Schema): ObjectParts {
  const properties = isSchema(schema.properties) ? schema.properties : {}
  const converted: Record<string, GbnfJsonSchema> = {}
  for (const [key, value] of Object.entries(properties)) converted[key] = toGbnfSchema(value)
  const required = Array.isArray(schema.required)
    ? schema.required.filter((key): key is string => typeof key === 'string' && key in converted)
    : []
  return { properties: converted, required }
}

function objectSchema(schema: Schema): GbnfJsonSchema {
  return { type: 'object', ...objectParts(schema), additionalProperties: false }
}

function arraySchema(schema: Schema): GbnfJsonSchema {
  return {
    type: 'array',
    items: schema.items === undefined ? ANY_VALUE : toGbnfSchema(schema.items),
    ...(typeof schema.minItems === 'number' && { minItems: schema.minItems }),
    ...(typeof schema.maxItems === 'number' && { maxItems: schema.maxItems }),
  }
}

function typed(schema: Schema, type: string): GbnfJsonSchema {
  if (type === 'object') return objectSchema(schema)
  if (type === 'array') return arraySchema(schema)
  if (type === 'string' && typeof schema.minLength === 'number' && schema.minLength > 0)
    return { type: 'string', minLength: schema.minLength }
  return SCALARS.has(type) ? { type: type as 'string' } : ANY_VALUE
}

/**
 * A tool's JSON Schema in the subset node-llama-cpp turns into a grammar: `anyOf` becomes `oneOf`,
 * nullable types become unions, unknown keywords are dropped (the tools pipeline still validates the
 * arguments against the full schema). String lengths are not bounded in the grammar: bounded
 * repetition makes llama.cpp's grammar sampling very slow; the token budget bounds them instead.
 */
export function toGbnfSchema(value: unknown): GbnfJsonSchema {
  if (!isSchema(value)) return ANY_VALUE
  if ('const' in value && literal(value.const)) return { const: value.const }
  if (Array.isArray(value.enum) && value.enum.length > 0 && value.enum.every(literal))
    return { enum: value.enum }
  const union = Array.isArray(value.anyOf)
    ? value.anyOf
    : Array.isArray(value.oneOf)
      ? value.oneOf
      : undefined
  if (union && union.length > 0) return { oneOf: union.map(toGbnfSchema) }
  if (Array.isArray(value.type)) {
    const types = value.type.filter((t): t is string => typeof t === 'string')
    if (types.every((t) => SCALARS.has(t))) return { type: types as Array<'string'> }
    return { oneOf: types.map((t) => typed(value, t)) }
  }
  if (typeof value.type === 'string') return typed(value, value.type)
  if (isSchema(value.properties)) return objectSchema(value)
  return ANY_VALUE
}

/**
 * The JSON protocol as a grammar: exactly one `{"method": "<name>", ...arguments}` object for one of
 * the tools, so every reply parses and its arguments have the schema's shape. The answer to the user
 * is `done`'s message, which must not be empty.
 */
export function toolCallSchema(tools: readonly ToolSpec[]): GbnfJsonSchema {
  const variants = tools.map((tool): GbnfJsonSchema => {
    const params = objectParts(tool.parameters)
    const properties: Record<string, GbnfJsonSchema> = { method: { const: tool.name }, ...params.properties }
    if (tool.name === DONE_METHOD && properties.message) properties.message = { type: 'string', minLength: 1 }
    return {
      type: 'object',
      properties,
      required: ['method', ...params.required.filter((key) => key !== 'method')],
      additionalProperties: false,
    }
  })
  return variants.length === 1 ? (variants[0] as GbnfJsonSchema) : { oneOf: variants }
}
