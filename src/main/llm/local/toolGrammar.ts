import type { GbnfJsonSchema, Llama, LlamaGrammar } from 'node-llama-cpp'
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
  const variants = tools.map((tool, index): GbnfJsonSchema => {
    const params = objectParts(tool.parameters)
    const properties: Record<string, GbnfJsonSchema> = { method: { const: tool.name }, ...params.properties }
    if (tool.command && tool.command.argument in properties)
      properties[tool.command.argument] = { const: commandSlot(index) }
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

/** A placeholder the JSON grammar carries where a command tool's argument goes; replaced by its rule. */
function commandSlot(index: number): string {
  return `BUREAUCOMMANDSLOT${index}`
}

/** A GBNF literal that matches `text` exactly. */
function gbnfRaw(text: string): string {
  return `"${text.replace(/[\\"]/g, '\\$&')}"`
}

/** A GBNF literal of text as it is written inside a JSON string. */
function gbnfInJson(text: string): string {
  return gbnfRaw(JSON.stringify(text).slice(1, -1))
}

/** One character of a JSON string, as node-llama-cpp writes it. */
const COMMAND_CHAR = String.raw`bureau-command-char ::= [^"\\\x7F\x00-\x1F] | "\\" ["\\/bfnrt] | "\\u" [0-9a-fA-F]{4}`

/**
 * The JSON-schema grammar text with each command tool's placeholder replaced by a rule: a JSON string
 * that starts with one of the tool's prefixes, then ends or goes on after a space.
 */
export function withCommandRules(grammar: string, tools: readonly ToolSpec[]): string {
  let text = grammar
  const rules: string[] = []
  tools.forEach((tool, index) => {
    if (!tool.command || tool.command.prefixes.length === 0) return
    const literal = gbnfRaw(`"${commandSlot(index)}"`)
    if (!text.includes(literal))
      throw new Error(`the tool grammar has no place for the command of "${tool.name}"`)
    const rule = `bureau-command-${index}`
    text = text.split(literal).join(rule)
    const heads = [...new Set(tool.command.prefixes)].map(gbnfInJson).join(' | ')
    rules.push(`${rule} ::= "\\"" ( ${heads} ) ( " " bureau-command-char* )? "\\""`)
  })
  if (rules.length === 0) return grammar
  return [text.trimEnd(), ...rules, COMMAND_CHAR, ''].join('\n')
}

/**
 * The grammar of one reply: one call of one of the tools (`toolCallSchema`), and for a command tool
 * a `command` that names a real toolset and method, so a small model cannot invent either.
 */
export async function toolCallGrammar(llama: Llama, tools: readonly ToolSpec[]): Promise<LlamaGrammar> {
  // The schema is built at run time, so node-llama-cpp's type-level inference has nothing to infer.
  const json = await llama.createGrammarForJsonSchema(toolCallSchema(tools) as never)
  if (!tools.some((tool) => tool.command)) return json
  return llama.createGrammar({
    grammar: withCommandRules(json.grammar, tools),
    stopGenerationTriggers: json.stopGenerationTriggers,
    trimWhitespaceSuffix: json.trimWhitespaceSuffix,
    rootRuleName: json.rootRuleName,
  })
}
