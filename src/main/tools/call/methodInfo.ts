import { type JsonSchema, resolveRef, schemaBranches, schemaTypes, toJsonSchema } from '../schema/jsonSchema'
import { typeText } from '../schema/typeText'
import type { AnyToolMethod } from '../types'

export interface ParamInfo {
  name: string
  schema: JsonSchema
  required: boolean
  hasDefault: boolean
  default: unknown
  description: string | undefined
  type: string
  /** Every branch is boolean: the CLI accepts `--flag` / `--no-flag`. */
  isBoolean: boolean
  /** The field takes an array: the CLI accepts a comma list, JSON or a repeated option. */
  isArray: boolean
}

export interface MethodInfo {
  input: JsonSchema
  output: JsonSchema
  params: ParamInfo[]
  returns: string
}

const cache = new WeakMap<AnyToolMethod, MethodInfo>()

function hasType(schema: JsonSchema, root: JsonSchema, wanted: string): boolean {
  return schemaBranches(resolveRef(schema, root)).some((branch) =>
    schemaTypes(resolveRef(branch, root)).includes(wanted),
  )
}

function onlyType(schema: JsonSchema, root: JsonSchema, wanted: string): boolean {
  const branches = schemaBranches(resolveRef(schema, root)).filter((b) => !schemaTypes(b).includes('null'))
  return (
    branches.length > 0 && branches.every((branch) => schemaTypes(resolveRef(branch, root)).includes(wanted))
  )
}

/** The JSON Schemas and parameter list of a method, computed once per method object. */
export function methodInfo(method: AnyToolMethod): MethodInfo {
  const cached = cache.get(method)
  if (cached) return cached
  const input = toJsonSchema(method.input, 'input')
  const output = toJsonSchema(method.output, 'output')
  const required = new Set(input.required ?? [])
  const params = Object.entries(input.properties ?? {}).map(([name, schema]): ParamInfo => {
    const resolved = resolveRef(schema, input)
    return {
      name,
      schema,
      required: required.has(name),
      hasDefault: 'default' in resolved,
      default: resolved.default,
      description: resolved.description,
      type: typeText(schema, input),
      isBoolean: onlyType(schema, input, 'boolean'),
      isArray: hasType(schema, input, 'array'),
    }
  })
  const info: MethodInfo = { input, output, params, returns: typeText(output) }
  cache.set(method, info)
  return info
}
