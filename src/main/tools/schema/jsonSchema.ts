import { z } from 'zod'
import { fastJsonSchema } from './fastJsonSchema'
import type { JsonSchema } from './jsonSchemaType'

export type { JsonSchema } from './jsonSchemaType'

const SAFE_INT_BOUND = Number.MAX_SAFE_INTEGER

/** Drops noise a model does not need: `$schema` and the ±2^53 bounds zod puts on every `.int()`. */
function tidy(schema: JsonSchema): JsonSchema {
  const { $schema: _ignored, ...rest } = schema
  const out: JsonSchema = rest
  if (out.minimum === -SAFE_INT_BOUND) delete out.minimum
  if (out.maximum === SAFE_INT_BOUND) delete out.maximum
  for (const [key, value] of Object.entries(out)) {
    if (key === 'properties' || key === '$defs') {
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, JsonSchema>).map(([name, child]) => [name, tidy(child)]),
      )
    } else if (key === 'items' && value && typeof value === 'object' && !Array.isArray(value)) {
      out.items = tidy(value as JsonSchema)
    } else if (key === 'additionalProperties' && value && typeof value === 'object') {
      out.additionalProperties = tidy(value as JsonSchema)
    } else if (
      (key === 'anyOf' || key === 'oneOf' || key === 'allOf' || key === 'prefixItems') &&
      Array.isArray(value)
    ) {
      out[key] = value.map((child) => tidy(child as JsonSchema))
    }
  }
  return out
}

/** JSON Schema of a zod schema as the caller sends it (`io: 'input'`: fields with defaults are optional). */
export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  return (
    fastJsonSchema(schema, io) ?? tidy(z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema)
  )
}

/** Follows a local `#/$defs/...` reference. */
export function resolveRef(schema: JsonSchema, root: JsonSchema): JsonSchema {
  let current = schema
  for (let depth = 0; current.$ref && depth < 10; depth++) {
    const match = /^#\/\$defs\/(.+)$/.exec(current.$ref)
    const target = match?.[1] ? root.$defs?.[match[1]] : current.$ref === '#' ? root : undefined
    if (!target) return {}
    current = target
  }
  return current
}

export function schemaTypes(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type
  return schema.type ? [schema.type] : []
}

/** The alternatives of a union, or the schema itself. */
export function schemaBranches(schema: JsonSchema): JsonSchema[] {
  const union = schema.anyOf ?? schema.oneOf
  if (union) return union
  const types = schemaTypes(schema)
  if (types.length > 1) return types.map((type) => ({ ...schema, type }))
  return [schema]
}
