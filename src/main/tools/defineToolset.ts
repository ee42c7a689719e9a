import { z } from 'zod'
import { AppError } from '../../shared/errors'
import { apiToolName } from './naming'
import type {
  AnyToolMethod,
  InputSchema,
  MethodSpec,
  OpenSignals,
  OutputSchema,
  Risk,
  ToolMethod,
  Toolset,
  ToolsetSpec,
} from './types'

const TOOLSET_NAME = /^[a-z][a-z0-9_]*$/
const METHOD_KEY = /^[a-z][a-zA-Z0-9]*$/
const API_NAME = /^[a-zA-Z0-9_-]{1,64}$/
const RESERVED_TOOLSETS = new Set(['help', 'cli'])
const RISKS: ReadonlySet<string> = new Set<Risk>(['read', 'write', 'external'])

const definedMethods = new WeakSet<object>()
const definedToolsets = new WeakSet<object>()

function invalid(message: string): AppError {
  return new AppError('VALIDATION_FAILED', message)
}

/** Declares one LLM-callable method. The declaration is checked now so mistakes surface at load time. */
export function method<I extends InputSchema, O extends OutputSchema>(
  spec: MethodSpec<I, O>,
): ToolMethod<I, O> {
  if (!spec || typeof spec !== 'object') throw invalid('method() needs an object')
  if (typeof spec.description !== 'string' || spec.description.trim() === '') {
    throw invalid('method() needs a non-empty description')
  }
  if (!(spec.input instanceof z.ZodObject)) throw invalid('method() input must be a z.object(...)')
  if (!(spec.output instanceof z.ZodType)) throw invalid('method() output must be a zod schema')
  if (!RISKS.has(spec.risk))
    throw invalid(`method() risk must be "read", "write" or "external", not ${JSON.stringify(spec.risk)}`)
  if (typeof spec.run !== 'function') throw invalid('method() needs a run(args, ctx) function')
  spec.examples?.forEach((example, index) => {
    // Without zod's compiled fast path: compiling a parser for every method at declaration cost
    // ~60 ms per start-up, and most methods are never called in a process (same verdict either way).
    const parsed = spec.input.safeParse(exampleArgs(example), { jitless: true })
    if (!parsed.success)
      throw invalid(`example ${index + 1} does not match the input schema: ${parsed.error.message}`)
  })
  const defined: ToolMethod<I, O> = Object.freeze({ ...spec, kind: 'method' as const })
  definedMethods.add(defined)
  return defined
}

/** Declares a toolset: a named group of methods keyed by camelCase names. */
export function defineToolset<M extends Record<string, AnyToolMethod>>(spec: ToolsetSpec<M>): Toolset<M> {
  if (!spec || typeof spec !== 'object') throw invalid('defineToolset() needs an object')
  const { name, summary, methods } = spec
  if (typeof name !== 'string' || !TOOLSET_NAME.test(name)) {
    throw invalid(
      `toolset name ${JSON.stringify(name)} must be lowercase letters, digits and _ (start with a letter)`,
    )
  }
  if (RESERVED_TOOLSETS.has(name)) throw invalid(`toolset name "${name}" is reserved`)
  if (typeof summary !== 'string' || summary.trim() === '' || summary.includes('\n')) {
    throw invalid(`toolset "${name}" needs a one-line summary`)
  }
  if (!methods || typeof methods !== 'object' || Object.keys(methods).length === 0) {
    throw invalid(`toolset "${name}" needs at least one method`)
  }
  for (const [key, value] of Object.entries(methods)) {
    if (!METHOD_KEY.test(key)) throw invalid(`method "${name}.${key}" must be camelCase (letters and digits)`)
    if (!definedMethods.has(value))
      throw invalid(`method "${name}.${key}" must be created with method({...})`)
    const apiName = apiToolName(name, key)
    if (!API_NAME.test(apiName)) throw invalid(`"${apiName}" is longer than 64 characters; use shorter names`)
  }
  const toolset: Toolset<M> = Object.freeze({
    kind: 'toolset' as const,
    name,
    summary: summary.trim(),
    description: (spec.description ?? summary).trim(),
    methods: Object.freeze({ ...methods }),
    ...(spec.openFor && { openFor: openForOf(name, spec.openFor) }),
  })
  definedToolsets.add(toolset)
  return toolset
}

function openForOf(name: string, openFor: OpenSignals): OpenSignals {
  const extensions = (openFor.extensions ?? []).map((ext) => ext.toLowerCase())
  for (const ext of extensions)
    if (!/^\.[a-z0-9]+$/.test(ext))
      throw invalid(`toolset "${name}": "${ext}" is not a file extension like .xlsx`)
  return Object.freeze({ extensions: Object.freeze(extensions), urls: openFor.urls === true })
}

export function isToolset(value: unknown): value is Toolset {
  return typeof value === 'object' && value !== null && definedToolsets.has(value)
}

/** The arguments of an example, whichever of the two example forms it uses. */
export function exampleArgs(example: unknown): unknown {
  if (example && typeof example === 'object' && 'args' in example) {
    const keys = Object.keys(example)
    if (keys.every((key) => key === 'args' || key === 'description'))
      return (example as { args: unknown }).args
  }
  return example
}

export function exampleDescription(example: unknown): string | undefined {
  if (example && typeof example === 'object' && 'args' in example && 'description' in example) {
    const description = (example as { description?: unknown }).description
    return typeof description === 'string' ? description : undefined
  }
  return undefined
}
