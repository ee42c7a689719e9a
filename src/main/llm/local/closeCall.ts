import { jsonrepair } from 'jsonrepair'
import type { ToolSpec } from '../types'

type Schema = Record<string, unknown>

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The smallest value a schema accepts, for a required argument the token budget left out. */
export function minimalValue(schema: unknown): unknown {
  if (!isSchema(schema)) return null
  if ('const' in schema) return schema.const
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0]
  const union = Array.isArray(schema.anyOf)
    ? schema.anyOf
    : Array.isArray(schema.oneOf)
      ? schema.oneOf
      : undefined
  if (union?.length) return minimalValue(union[0])
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
  switch (type) {
    case 'string':
      return 'x'.repeat(typeof schema.minLength === 'number' ? schema.minLength : 0)
    case 'number':
    case 'integer':
      return typeof schema.minimum === 'number' ? schema.minimum : 0
    case 'boolean':
      return false
    case 'array':
      return []
    case 'object': {
      const properties = isSchema(schema.properties) ? schema.properties : {}
      const required = Array.isArray(schema.required) ? (schema.required as string[]) : []
      return Object.fromEntries(required.map((key) => [key, minimalValue(properties[key])]))
    }
    default:
      return null
  }
}

/**
 * The text that completes a JSON-protocol call the token budget cut off: jsonrepair closes the open
 * string and brackets, then the required arguments the model did not reach get their smallest valid
 * value. Returns '' when the text is already complete or cannot be completed by appending.
 */
export function closeCall(text: string, tools: readonly ToolSpec[]): string {
  const start = text.indexOf('{')
  if (start < 0) return ''
  const body = text.slice(start)
  try {
    JSON.parse(body)
    return ''
  } catch {}
  let repaired: string
  let object: unknown
  try {
    repaired = jsonrepair(body)
    object = JSON.parse(repaired)
  } catch {
    return ''
  }
  if (!repaired.startsWith(body) || !isSchema(object) || !repaired.endsWith('}')) return ''
  const tool = tools.find((t) => t.name === object.method)
  const properties = isSchema(tool?.parameters.properties) ? tool.parameters.properties : {}
  const required = Array.isArray(tool?.parameters.required) ? (tool.parameters.required as string[]) : []
  const missing = required.filter((key) => !(key in object))
  if (missing.length === 0) return repaired.slice(body.length)
  const extra = missing.map(
    (key) => `${JSON.stringify(key)}:${JSON.stringify(minimalValue(properties[key]))}`,
  )
  const open = repaired.slice(0, -1)
  const comma = Object.keys(object).length > 0 ? ',' : ''
  return `${open}${comma}${extra.join(',')}}`.slice(body.length)
}
