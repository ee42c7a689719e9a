import type { InteractionMode } from '../../shared/settings'
import { cliUsage, exampleCall, renderCliCall } from './cliUsage'
import { exampleArgs } from './defineToolset'
import type { JsonSchema } from './jsonSchema'
import { methodInfo, type ParamInfo } from './methodInfo'
import { apiToolName } from './naming'
import type { AnyToolMethod, Toolset } from './types'

/** An OpenAI-style function tool. */
export interface FunctionTool {
  type: 'function'
  function: { name: string; description: string; parameters: JsonSchema }
}

export interface ToolCatalog {
  mode: InteractionMode
  /** API mode: one function per method; CLI mode: the single `cli` tool. */
  tools: FunctionTool[]
  /** The Markdown manual of the toolsets, for the system prompt. */
  manual: string
}

const cache = new WeakMap<readonly Toolset[], Partial<Record<InteractionMode, ToolCatalog>>>()

function parameters(method: AnyToolMethod): JsonSchema {
  const { input } = methodInfo(method)
  return { ...input, type: 'object', properties: input.properties ?? {} }
}

export function buildApiTools(toolsets: readonly Toolset[]): FunctionTool[] {
  return toolsets.flatMap((toolset) =>
    Object.entries(toolset.methods).map(([key, method]) => ({
      type: 'function' as const,
      function: {
        name: apiToolName(toolset.name, key),
        description: `${method.description}\nReturns: ${methodInfo(method).returns}`,
        parameters: parameters(method),
      },
    })),
  )
}

export function buildCliTool(toolsets: readonly Toolset[]): FunctionTool {
  const list = toolsets.map((t) => `- ${t.name}: ${t.summary}`).join('\n')
  return {
    type: 'function',
    function: {
      name: 'cli',
      description: [
        'Runs one Bureau tool command written like a shell command: <toolset> <method> [arguments] [--option value].',
        'Run "help", "<toolset> --help" or "<toolset> <method> --help" to see methods, parameters and examples.',
        'Toolsets:',
        list || '- (none)',
      ].join('\n'),
      parameters: {
        type: 'object',
        properties: {
          command: {
            type: 'string',
            description: 'The command line, e.g. `files list /` or `help`. Quote values that contain spaces.',
          },
        },
        required: ['command'],
      },
    },
  }
}

function paramLine(param: ParamInfo): string {
  const facts = [
    param.type,
    param.required ? 'required' : param.hasDefault ? `default ${JSON.stringify(param.default)}` : 'optional',
  ]
  return `- \`${param.name}\` (${facts.join(', ')})${param.description ? `: ${param.description}` : ''}`
}

function methodSection(toolset: Toolset, key: string, mode: InteractionMode): string {
  const method = toolset.methods[key] as AnyToolMethod
  const info = methodInfo(method)
  const heading =
    mode === 'cli' ? `### \`${cliUsage(toolset, key)}\`` : `### \`${apiToolName(toolset.name, key)}\``
  const lines = [heading, method.description]
  if (info.params.length > 0) lines.push('Parameters:', ...info.params.map(paramLine))
  lines.push(`Returns: \`${info.returns}\``)
  const example = method.examples?.[0]
  if (example !== undefined) {
    const args = exampleArgs(example) as Record<string, unknown>
    lines.push(
      mode === 'cli'
        ? `Example: \`${renderCliCall(toolset, key, args)}\``
        : `Example: \`${JSON.stringify(args)}\``,
    )
  } else if (mode === 'cli') {
    lines.push(`Example: \`${renderCliCall(toolset, key, exampleCall(toolset, key).args)}\``)
  }
  return lines.join('\n')
}

/** The Markdown manual: per toolset its summary and description, then each method. */
export function buildManual(toolsets: readonly Toolset[], mode: InteractionMode): string {
  const intro =
    mode === 'cli'
      ? 'Call tools with the `cli` tool: `{"command": "<toolset> <method> [arguments] [--option value]"}`. Leading required parameters are positional; quote values with spaces.'
      : 'Call each method as its own function with a JSON object of named parameters.'
  const sections = toolsets.map((toolset) => {
    const methods = Object.keys(toolset.methods).map((key) => methodSection(toolset, key, mode))
    const description = toolset.description !== toolset.summary ? `\n${toolset.description}` : ''
    return [`## ${toolset.name}: ${toolset.summary}${description}`, ...methods].join('\n\n')
  })
  return ['# Tools', intro, ...sections].join('\n\n')
}

/**
 * The catalog for a set of toolsets, cached per registry snapshot (the array `registry.list()`
 * returns), so it is rebuilt only when the set of toolsets changes.
 */
export function getCatalog(toolsets: readonly Toolset[], mode: InteractionMode): ToolCatalog {
  let entry = cache.get(toolsets)
  if (!entry) {
    entry = {}
    cache.set(toolsets, entry)
  }
  const cached = entry[mode]
  if (cached) return cached
  const catalog: ToolCatalog = {
    mode,
    tools: mode === 'api' ? buildApiTools(toolsets) : [buildCliTool(toolsets)],
    manual: buildManual(toolsets, mode),
  }
  entry[mode] = catalog
  return catalog
}
