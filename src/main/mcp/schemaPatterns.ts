import { RE2JS } from 're2js'

/**
 * `pattern` and `patternProperties` of a server's schema, checked with RE2 (linear time) instead of
 * JavaScript's backtracking RegExp: a pattern like `(a+)+$` takes minutes on a 40-character string in
 * V8 and microseconds in RE2. The schema given to zod has them removed; `patternIssues` checks them.
 */

type Schema = Record<string, unknown>

/** Keywords whose values are data, not schemas: nothing under them is a pattern. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples'])
const MAX_DEPTH = 64

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

const compiled = new Map<string, RE2JS | null>()

/** The pattern in RE2, or null when RE2 cannot express it (backreferences, lookaround). */
function compile(pattern: string): RE2JS | null {
  let re = compiled.get(pattern)
  if (re === undefined) {
    try {
      re = RE2JS.compile(pattern)
    } catch {
      re = null
    }
    if (compiled.size > 1_000) compiled.clear()
    compiled.set(pattern, re)
  }
  return re
}

/** The schema without `pattern`/`patternProperties` (and without `additionalProperties` beside those). */
export function withoutPatterns(value: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) return value.map((item) => withoutPatterns(item, depth + 1))
  const out: Schema = {}
  const hasPatternProperties = isSchema((value as Schema).patternProperties)
  for (const [key, child] of Object.entries(value)) {
    if (key === 'pattern' && typeof child === 'string') continue
    if (key === 'patternProperties') continue
    // Without its patternProperties, additionalProperties would refuse the keys they allow.
    if (key === 'additionalProperties' && hasPatternProperties) continue
    out[key] = DATA_KEYWORDS.has(key) ? child : withoutPatterns(child, depth + 1)
  }
  return out
}

/** The patterns RE2 cannot check (the server still validates them). */
export function uncheckedPatterns(value: unknown, depth = 0, out: string[] = []): string[] {
  if (depth > MAX_DEPTH || typeof value !== 'object' || value === null) return out
  if (Array.isArray(value)) {
    for (const item of value) uncheckedPatterns(item, depth + 1, out)
    return out
  }
  for (const [key, child] of Object.entries(value)) {
    if (DATA_KEYWORDS.has(key)) continue
    if (key === 'pattern' && typeof child === 'string' && !compile(child)) out.push(child)
    if (key === 'patternProperties' && isSchema(child))
      for (const pattern of Object.keys(child)) if (!compile(pattern)) out.push(pattern)
    uncheckedPatterns(child, depth + 1, out)
  }
  return out
}

export interface PatternIssue {
  path: Array<string | number>
  message: string
}

interface Walk {
  root: Schema
  issues: PatternIssue[]
}

function resolveRef(root: Schema, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined
  let node: unknown = root
  for (const part of ref.slice(2).split('/')) {
    if (!isSchema(node)) return undefined
    node = node[part.replace(/~1/g, '/').replace(/~0/g, '~')]
  }
  return node
}

function check(
  walk: Walk,
  schema: unknown,
  value: unknown,
  path: Array<string | number>,
  depth: number,
): void {
  if (!isSchema(schema) || depth > MAX_DEPTH) return
  if (typeof schema.$ref === 'string') check(walk, resolveRef(walk.root, schema.$ref), value, path, depth + 1)
  if (typeof value === 'string' && typeof schema.pattern === 'string') {
    const re = compile(schema.pattern)
    if (re && !re.test(value))
      walk.issues.push({ path, message: `does not match the pattern ${schema.pattern.slice(0, 200)}` })
  }
  if (Array.isArray(schema.allOf)) for (const part of schema.allOf) check(walk, part, value, path, depth + 1)
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key]
    if (!Array.isArray(branches) || branches.length === 0) continue
    const results = branches.map((branch) => {
      const inner: Walk = { root: walk.root, issues: [] }
      check(inner, branch, value, path, depth + 1)
      return inner.issues
    })
    if (!results.some((issues) => issues.length === 0)) walk.issues.push(...(results[0] ?? []))
  }
  if (Array.isArray(value)) {
    const prefix = Array.isArray(schema.prefixItems)
      ? schema.prefixItems
      : Array.isArray(schema.items)
        ? schema.items
        : []
    value.forEach((item, i) => {
      const itemSchema = i < prefix.length ? prefix[i] : isSchema(schema.items) ? schema.items : undefined
      check(walk, itemSchema, item, [...path, i], depth + 1)
    })
    return
  }
  if (!isSchema(value)) return
  const properties = isSchema(schema.properties) ? schema.properties : {}
  const patternProperties = isSchema(schema.patternProperties) ? schema.patternProperties : undefined
  for (const [key, child] of Object.entries(value)) {
    const childPath = [...path, key]
    if (isSchema(schema.propertyNames)) check(walk, schema.propertyNames, key, childPath, depth + 1)
    const declared = Object.hasOwn(properties, key)
    if (declared) check(walk, properties[key], child, childPath, depth + 1)
    let matched = false
    for (const [pattern, sub] of Object.entries(patternProperties ?? {})) {
      const re = compile(pattern)
      // A key pattern RE2 cannot read is taken as matching: the server decides.
      if (re && !re.test(key)) continue
      matched = true
      check(walk, sub, child, childPath, depth + 1)
    }
    if (declared || matched || !patternProperties) continue
    if (schema.additionalProperties === false)
      walk.issues.push({ path: childPath, message: 'is not an allowed property' })
    else check(walk, schema.additionalProperties, child, childPath, depth + 1)
  }
}

/** Where a value breaks its schema's patterns, each checked in linear time. */
export function patternIssues(schema: unknown, value: unknown): PatternIssue[] {
  if (!isSchema(schema)) return []
  const walk: Walk = { root: schema, issues: [] }
  check(walk, schema, value, [], 0)
  return walk.issues
}
