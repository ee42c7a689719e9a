import { nameKey } from '../naming'
import type { JsonSchema } from '../schema/jsonSchema'

/** True when `coerceValue(value, schema)` would hand back the value as it is (deep-equal). */
export type UnchangedCheck = (value: unknown) => boolean

const cache = new WeakMap<JsonSchema, UnchangedCheck | null>()

const PRIMITIVE_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null'])

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** `matchesType` of coerceArguments for one type name (which union branch coercion picks). */
function typeTest(type: string): UnchangedCheck {
  switch (type) {
    case 'string':
      return (v) => typeof v === 'string'
    case 'number':
      return (v) => typeof v === 'number'
    case 'integer':
      return (v) => Number.isInteger(v)
    case 'boolean':
      return (v) => typeof v === 'boolean'
    case 'null':
      return (v) => v === null
    case 'array':
      return Array.isArray
    case 'object':
      return isPlainObject
    default:
      return () => false
  }
}

function arrayCheck(schema: JsonSchema): UnchangedCheck | null {
  if (schema.prefixItems) return null
  if (!schema.items) return Array.isArray
  const item = compile(schema.items)
  if (!item) return null
  return (value) => {
    if (!Array.isArray(value)) return false
    for (let i = 0; i < value.length; i++) if (!item(value[i])) return false
    return true
  }
}

function objectCheck(schema: JsonSchema): UnchangedCheck | null {
  const properties = schema.properties ?? {}
  const required = new Set(schema.required ?? [])
  const extra = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined
  const extraCheck = extra ? compile(extra) : undefined
  if (extraCheck === null) return null
  const checks = new Map<string, UnchangedCheck>()
  for (const [name, child] of Object.entries(properties)) {
    const check = compile(child)
    if (!check) return null
    checks.set(name, check)
  }
  const aliases = new Map(Object.keys(properties).map((name) => [nameKey(name), name]))
  return (value) => {
    if (!isPlainObject(value)) return false
    for (const [key, item] of Object.entries(value)) {
      const check = checks.get(key)
      if (!check) {
        // Unknown keys: coercion may rename them to a field (an alias) or coerce them as extras.
        if (key in properties) return false
        const alias = aliases.get(nameKey(key))
        if (alias && !(alias in value)) return false
        if (extraCheck && !extraCheck(item)) return false
        continue
      }
      // Coercion drops undefined, and optional null or "" it judges unintended: the slow path decides.
      if (item === undefined) return false
      if (!required.has(key) && (item === null || item === '')) return false
      if (!check(item)) return false
    }
    return true
  }
}

/** The check for one non-union schema of a single type (or none). */
function singleTypeCheck(schema: JsonSchema, type: string | undefined): UnchangedCheck | null {
  if (type === undefined) return () => true
  if (PRIMITIVE_TYPES.has(type)) return typeTest(type)
  if (type === 'array') return arrayCheck(schema)
  if (type === 'object') return objectCheck(schema)
  return null
}

/**
 * A union of primitive types (`string | number | boolean | null`, the cell value of every spreadsheet
 * write): a primitive that matches a branch stays as it is, so one test does; it runs per array item.
 */
function primitiveUnionCheck(types: string[]): UnchangedCheck {
  const kinds = new Set(types.filter((t) => t !== 'null' && t !== 'integer'))
  const allowsNull = types.includes('null')
  const allowsInteger = types.includes('integer')
  return (value) =>
    value === null ? allowsNull : kinds.has(typeof value) || (allowsInteger && Number.isInteger(value))
}

/** A union: coercion takes the first branch the value's type matches and coerces within it. */
function unionCheck(branches: { test: UnchangedCheck; check: UnchangedCheck }[]): UnchangedCheck {
  return (value) => {
    for (const branch of branches) if (branch.test(value)) return branch.check(value)
    return false
  }
}

function build(schema: JsonSchema): UnchangedCheck | null {
  // $ref, const and anyOf/oneOf take the general path (their matching needs the root schema).
  if (schema.$ref !== undefined || schema.const !== undefined || schema.anyOf || schema.oneOf) return null
  if (schema.enum) {
    const options = schema.enum
    return (value) => options.includes(value)
  }
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []
  if (types.length <= 1) return singleTypeCheck(schema, types[0])
  if (types.every((type) => PRIMITIVE_TYPES.has(type))) return primitiveUnionCheck(types)
  const branches: { test: UnchangedCheck; check: UnchangedCheck }[] = []
  for (const type of types) {
    const check = singleTypeCheck({ ...schema, type }, type)
    if (!check) return null
    branches.push({ test: typeTest(type), check })
  }
  return unionCheck(branches)
}

function compile(schema: JsonSchema): UnchangedCheck | null {
  if (typeof schema !== 'object' || schema === null) return null
  let check = cache.get(schema)
  if (check === undefined) {
    check = build(schema)
    cache.set(schema, check)
  }
  return check
}

/**
 * A compiled test, cached per schema object, that coercion would leave a value unchanged, so the
 * tolerant walk (and its copy of every array) can be skipped for well-formed input such as a
 * 10,000-cell `values` array. `null` when the schema has parts only the general walk understands.
 * It only ever says "unchanged" when the walk would return a deep-equal value; when unsure it says no.
 */
export function unchangedByCoercion(schema: JsonSchema): UnchangedCheck | null {
  return compile(schema)
}
