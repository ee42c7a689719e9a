import { type JsonSchema, resolveRef, schemaBranches, schemaTypes } from './jsonSchema'

/** A short TypeScript-like rendering of a JSON Schema for manuals and help: `{path: string, rows?: number[]}`. */
export function typeText(schema: JsonSchema, root: JsonSchema = schema, depth = 0): string {
  const resolved = resolveRef(schema, root)
  if (resolved.const !== undefined) return JSON.stringify(resolved.const)
  if (resolved.enum) return resolved.enum.map((value) => JSON.stringify(value)).join(' | ')
  const branches = schemaBranches(resolved)
  if (branches.length > 1) {
    return [...new Set(branches.map((branch) => typeText(branch, root, depth)))].join(' | ')
  }
  const [type] = schemaTypes(resolved)
  switch (type) {
    case 'array': {
      if (resolved.prefixItems)
        return `[${resolved.prefixItems.map((item) => typeText(item, root, depth + 1)).join(', ')}]`
      const item = resolved.items ? typeText(resolved.items, root, depth + 1) : 'any'
      return item.includes(' ') ? `(${item})[]` : `${item}[]`
    }
    case 'object':
      return objectText(resolved, root, depth)
    case 'string':
      return resolved.format ? `string (${resolved.format})` : 'string'
    case undefined:
      return resolved.allOf?.[0] ? typeText(resolved.allOf[0], root, depth) : 'any'
    default:
      return type
  }
}

function objectText(schema: JsonSchema, root: JsonSchema, depth: number): string {
  const properties = Object.entries(schema.properties ?? {})
  if (properties.length === 0) {
    const extra = schema.additionalProperties
    if (extra && typeof extra === 'object') return `{[key: string]: ${typeText(extra, root, depth + 1)}}`
    return 'object'
  }
  if (depth >= 3) return 'object'
  const required = new Set(schema.required ?? [])
  const fields = properties.map(
    ([name, child]) => `${name}${required.has(name) ? '' : '?'}: ${typeText(child, root, depth + 1)}`,
  )
  return `{${fields.join(', ')}}`
}
