import type { JsonSchema } from './jsonSchemaType'

/**
 * Keywords only the validator needs: a call that breaks them gets an error saying what to change,
 * so sending them to the model on every request buys nothing.
 */
const VALIDATION_ONLY = new Set(['minLength', 'maxLength', 'minItems', 'maxItems', 'pattern', 'examples'])

/**
 * The parameters schema as the model sees it: validation-only keywords dropped, and every description
 * already given earlier in the same toolset (the `path` of each spreadsheet method, the cell-value rules
 * of each write) left out, so a convention is stated once, on the first method that uses it. `seen` is
 * shared by the methods of one toolset, in declaration order, which keeps the output deterministic.
 */
export function modelSchema(schema: JsonSchema, seen: Set<string>): JsonSchema {
  const out: JsonSchema = {}
  for (const [key, value] of Object.entries(schema)) {
    if (VALIDATION_ONLY.has(key)) continue
    if (key === 'description' && typeof value === 'string') {
      if (seen.has(value)) continue
      seen.add(value)
      out.description = value
    } else if ((key === 'properties' || key === '$defs') && isRecord(value)) {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, child]) => [name, modelSchema(child as JsonSchema, seen)]),
      )
    } else if ((key === 'items' || key === 'additionalProperties') && isRecord(value)) {
      out[key] = modelSchema(value as JsonSchema, seen)
    } else if (
      (key === 'anyOf' || key === 'oneOf' || key === 'allOf' || key === 'prefixItems') &&
      Array.isArray(value)
    ) {
      out[key] = value.map((child) => modelSchema(child as JsonSchema, seen))
    } else {
      out[key] = value
    }
  }
  return out
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
